package main

import (
	"bytes"
	"debug/macho"
	"encoding/binary"
	"strings"
	"testing"
)

// thin builds a minimal thin 64-bit Mach-O executable for cpu: a header with
// no load commands, then a payload that tells the slices apart.
func thin(cpu macho.Cpu, sub uint32, payload string) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, macho.Magic64)
	b = binary.LittleEndian.AppendUint32(b, uint32(cpu))
	b = binary.LittleEndian.AppendUint32(b, sub)
	b = binary.LittleEndian.AppendUint32(b, uint32(macho.TypeExec))
	b = binary.LittleEndian.AppendUint32(b, 0) // ncmds
	b = binary.LittleEndian.AppendUint32(b, 0) // sizeofcmds
	b = binary.LittleEndian.AppendUint32(b, 0) // flags
	b = binary.LittleEndian.AppendUint32(b, 0) // reserved
	return append(b, payload...)
}

func TestJoinReadsBackAsUniversal(t *testing.T) {
	t.Parallel()
	arm := thin(macho.CpuArm64, 0, "arm64 slice")
	intel := thin(macho.CpuAmd64, 3, "x86_64 slice, a little longer")
	var out bytes.Buffer
	a, err := newSlice("arm", arm)
	if err != nil {
		t.Fatal(err)
	}
	i, err := newSlice("intel", intel)
	if err != nil {
		t.Fatal(err)
	}
	if err := join(&out, []slice{a, i}); err != nil {
		t.Fatal(err)
	}
	fat, err := macho.NewFatFile(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatalf("the result is not a universal Mach-O file: %v", err)
	}
	if len(fat.Arches) != 2 {
		t.Fatalf("%d slices, want 2", len(fat.Arches))
	}
	want := map[macho.Cpu][]byte{macho.CpuArm64: arm, macho.CpuAmd64: intel}
	if fat.Arches[0].Cpu != macho.CpuAmd64 {
		t.Errorf("first slice is %v, want Intel first as lipo orders them", fat.Arches[0].Cpu)
	}
	for _, arch := range fat.Arches {
		if arch.Offset%(1<<alignLog2) != 0 || arch.Align != alignLog2 {
			t.Errorf("%v slice at offset %d, align 2^%d: want 16 KiB alignment", arch.Cpu, arch.Offset, arch.Align)
		}
		got := out.Bytes()[arch.Offset : arch.Offset+arch.Size]
		if !bytes.Equal(got, want[arch.Cpu]) {
			t.Errorf("%v slice is not the thin file byte for byte", arch.Cpu)
		}
		if arch.Cpu == macho.CpuAmd64 && arch.SubCpu != 3 {
			t.Errorf("Intel slice subtype %d, want the thin header's 3", arch.SubCpu)
		}
	}
}

func TestJoinRefuses(t *testing.T) {
	t.Parallel()
	arm, _ := newSlice("a", thin(macho.CpuArm64, 0, "a"))
	arm2, _ := newSlice("b", thin(macho.CpuArm64, 0, "b"))
	if err := join(&bytes.Buffer{}, []slice{arm, arm2}); err == nil || !strings.Contains(err.Error(), "same CPU") {
		t.Errorf("two arm64 slices: %v", err)
	}
	if err := join(&bytes.Buffer{}, []slice{arm}); err == nil {
		t.Error("one slice was accepted")
	}
	if _, err := newSlice("elf", []byte("\x7fELF\x02\x01\x01")); err == nil {
		t.Error("an ELF file was accepted as a thin Mach-O file")
	}
	obj := thin(macho.CpuArm64, 0, "")
	binary.LittleEndian.PutUint32(obj[12:], uint32(macho.TypeObj))
	if _, err := newSlice("obj", obj); err == nil {
		t.Error("an object file was accepted as an executable")
	}
}
