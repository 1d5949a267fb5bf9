package picture

// Exported for the external tests, which name parts of the picture with
// camera.ParseRegion.
var (
	Upright         = upright
	LumaStats       = lumaStats
	WithOrientation = withOrientation
)

// NewMemoryNoting is NewMemory whose every admission is also told to noted.
func NewMemoryNoting(total int64, noted func(n int64)) *Memory {
	m := NewMemory(total)
	m.noted = noted
	return m
}

// Hold takes n bytes of m, as a picture being made elsewhere would, until
// the returned func gives them back.
func Hold(m *Memory, n int64) func() {
	if !m.sem.TryAcquire(n) {
		panic("picture: Hold found the memory taken")
	}
	return func() { m.sem.Release(n) }
}
