// Command machofat joins thin macOS executables (one per CPU) into one
// universal ("fat") executable, as Apple's lipo -create does, so that a
// single file runs natively on both Apple silicon and Intel Macs. Each slice
// is copied byte for byte: the code signature the Go linker gives arm64
// slices stays valid.
//
//	go run ./scripts/machofat OUT THIN...
package main

import (
	"debug/macho"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: machofat OUT THIN THIN...  (joins thin macOS executables into one universal executable)")
		os.Exit(2)
	}
	if err := joinFiles(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "machofat:", err)
		os.Exit(1)
	}
}

// joinFiles reads each thin executable and writes the universal one to out.
func joinFiles(out string, thin []string) error {
	var slices []slice
	for _, name := range thin {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		s, err := newSlice(name, data)
		if err != nil {
			return err
		}
		slices = append(slices, s)
	}
	f, err := os.OpenFile(out, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if err := join(f, slices); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return f.Close()
}

// slice is one thin executable and the CPU it is for.
type slice struct {
	cpu    macho.Cpu
	subCPU uint32
	data   []byte
}

// newSlice checks that data is a thin 64-bit Mach-O executable.
func newSlice(name string, data []byte) (slice, error) {
	f, err := macho.NewFile(readerAt(data))
	if err != nil {
		return slice{}, fmt.Errorf("%s is not a thin Mach-O file: %w", name, err)
	}
	if f.Magic != macho.Magic64 || f.Type != macho.TypeExec {
		return slice{}, fmt.Errorf("%s is not a 64-bit Mach-O executable", name)
	}
	return slice{cpu: f.Cpu, subCPU: f.SubCpu, data: data}, nil
}

type readerAt []byte

func (r readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(r)) {
		return 0, io.EOF
	}
	n := copy(p, r[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// alignLog2 is the slice alignment: 16 KiB pages, as arm64 macOS requires
// and lipo uses for it (Intel needs only 4 KiB; 16 KiB suits both).
const alignLog2 = 14

// join writes the fat header, then each slice at its aligned offset, Intel
// first as lipo orders them.
func join(w io.Writer, slices []slice) error {
	if len(slices) < 2 {
		return errors.New("a universal executable needs at least two thin ones")
	}
	sort.Slice(slices, func(i, j int) bool { return slices[i].cpu < slices[j].cpu })
	for i := 1; i < len(slices); i++ {
		if slices[i].cpu == slices[i-1].cpu {
			return fmt.Errorf("two thin executables are for the same CPU (%v)", slices[i].cpu)
		}
	}
	const headerSize = 8
	const archSize = 20
	align := uint64(1) << alignLog2
	offset := uint64(headerSize + archSize*len(slices))
	header := make([]byte, 0, offset)
	header = binary.BigEndian.AppendUint32(header, macho.MagicFat)
	header = binary.BigEndian.AppendUint32(header, uint32(len(slices)))
	offsets := make([]uint64, len(slices))
	for i, s := range slices {
		offset = (offset + align - 1) &^ (align - 1)
		offsets[i] = offset
		if offset+uint64(len(s.data)) > 1<<32-1 {
			return errors.New("the universal executable would pass 4 GiB, beyond what the fat format can say")
		}
		header = binary.BigEndian.AppendUint32(header, uint32(s.cpu))
		header = binary.BigEndian.AppendUint32(header, s.subCPU)
		header = binary.BigEndian.AppendUint32(header, uint32(offset))
		header = binary.BigEndian.AppendUint32(header, uint32(len(s.data)))
		header = binary.BigEndian.AppendUint32(header, alignLog2)
		offset += uint64(len(s.data))
	}
	if _, err := w.Write(header); err != nil {
		return err
	}
	written := uint64(len(header))
	for i, s := range slices {
		if _, err := w.Write(make([]byte, offsets[i]-written)); err != nil {
			return err
		}
		if _, err := w.Write(s.data); err != nil {
			return err
		}
		written = offsets[i] + uint64(len(s.data))
	}
	return nil
}
