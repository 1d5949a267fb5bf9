package homeassistant_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"maison/demo"
	"maison/homeassistant"
)

func ExampleClient() {
	house := demo.New(demo.Options{ToolNaming: demo.NamingPrefixed})
	srv := httptest.NewServer(house.Handler())
	defer srv.Close()

	c, err := homeassistant.New(homeassistant.Config{URL: srv.URL, Token: house.UserToken()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Connect(ctx); err != nil {
		fmt.Println(err)
		return
	}
	s, _ := c.State("camera.garage")
	fmt.Printf("%s is %s, in the %s\n", s.Name(), s.State, c.Area(s.EntityID))

	res, err := c.CallAssist(ctx, "intent__HassTurnOn", map[string]any{"name": "Porch Light", "area": ""})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("turned on:", !res.IsError)

	_, err = c.CameraImage(ctx, "camera.porch", 0, 0)
	var e *homeassistant.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind)
	}
	// Output:
	// Garage is recording, in the Garage
	// turned on: true
	// camera off
}
