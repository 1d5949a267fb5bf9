package jpegscale_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"

	"maison/jpegscale"
)

func ExampleDecodeAtLeast() {
	// A 640x480 frame, as a camera would send it.
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 640, 480)), nil)

	// At least 200x150 is wanted: 1/2 scale (320x240) still covers it, 1/4 would not.
	img, scale, err := jpegscale.DecodeAtLeast(buf.Bytes(), 200, 150)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(scale, img.Bounds().Dx(), img.Bounds().Dy())

	// Then the last step to the exact size.
	small, err := jpegscale.Resize(img, 200, 150)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(small.Bounds())
	// Output:
	// 2 320 240
	// (0,0)-(200,150)
}
