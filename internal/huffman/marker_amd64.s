//go:build amd64 && !purego

#include "textflag.h"

// func scanMarker(b []byte) int
//
// Sixty-four bytes a round while no candidate is seen, then sixteen at a
// time to find it. A candidate is an 0xFF whose next byte is not 0x00:
// X7 holds every byte 0xFF, X6 every byte 0x00.
TEXT ·scanMarker(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	XORQ AX, AX
	PCMPEQB X7, X7
	PXOR X6, X6

wide:
	LEAQ 65(AX), DX
	CMPQ DX, CX
	JA   narrow
	MOVOU (SI)(AX*1), X0
	MOVOU 1(SI)(AX*1), X1
	MOVOU 16(SI)(AX*1), X2
	MOVOU 17(SI)(AX*1), X3
	MOVOU 32(SI)(AX*1), X4
	MOVOU 33(SI)(AX*1), X5
	MOVOU 48(SI)(AX*1), X8
	MOVOU 49(SI)(AX*1), X9
	PCMPEQB X7, X0
	PCMPEQB X6, X1
	PCMPEQB X7, X2
	PCMPEQB X6, X3
	PCMPEQB X7, X4
	PCMPEQB X6, X5
	PCMPEQB X7, X8
	PCMPEQB X6, X9
	PANDN X0, X1
	PANDN X2, X3
	PANDN X4, X5
	PANDN X8, X9
	POR  X3, X1
	POR  X9, X5
	POR  X5, X1
	PMOVMSKB X1, BX
	TESTL BX, BX
	JNZ  narrow
	ADDQ $64, AX
	JMP  wide

narrow:
	LEAQ 17(AX), DX
	CMPQ DX, CX
	JA   done
	MOVOU (SI)(AX*1), X0
	MOVOU 1(SI)(AX*1), X1
	PCMPEQB X7, X0
	PCMPEQB X6, X1
	PANDN X0, X1
	PMOVMSKB X1, BX
	TESTL BX, BX
	JNZ  found
	ADDQ $16, AX
	JMP  narrow

found:
	BSFL BX, BX
	ADDQ BX, AX

done:
	MOVQ AX, ret+24(FP)
	RET
