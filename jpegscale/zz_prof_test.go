package jpegscale
import ("os";"testing")
func BenchmarkZZProg8K(b *testing.B) {
	data, _ := os.ReadFile("/tmp/m35/prog8k.jpg")
	for b.Loop() { if _, err := Decode(data, 4); err != nil { b.Fatal(err) } }
}
