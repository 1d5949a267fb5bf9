package jpegfix_test

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"os"

	"maison/jpegfix"
)

func ExampleRepair() {
	clean, err := os.ReadFile("../fixtures/jpeg/base.sub-640x480.jpeg")
	if err != nil {
		fmt.Println(err)
		return
	}
	// A camera writes a comment whose length field is 8 bytes short, and
	// loses the end-of-image marker.
	comment := []byte("\xff\xfe\x00\x0aDH snapshot ch1")
	broken := append(append(append([]byte{}, clean[:2]...), comment...), clean[2:len(clean)-2]...)

	fixed, report, err := jpegfix.Repair(broken)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range report.Sentences() {
		fmt.Println(s)
	}
	_, err = jpeg.Decode(bytes.NewReader(fixed))
	fmt.Println("defects:", report.Defects(), "identical:", bytes.Equal(fixed, clean), "decodes:", err == nil)
	// Output:
	// At byte 2, a comment segment announced 10 bytes but really spanned 17; it was removed.
	// At byte 31,215, the missing end-of-image marker was added.
	// defects: 2 identical: true decodes: true
}

func ExampleFormatError() {
	_, _, err := jpegfix.Repair([]byte(`{"error":"channel offline"}`))
	fmt.Println(err)
	// Output:
	// jpegfix: the body is JSON of 27 bytes, not a JPEG: it begins "{\"error\":\"channel offline\"}"
}
