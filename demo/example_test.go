package demo_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"maison/demo"
)

// A House is an http.Handler: serve it, then talk to it as to Home Assistant.
func ExampleNew() {
	house := demo.New(demo.Options{ToolNaming: demo.NamingPrefixed})
	srv := httptest.NewServer(house.Handler())
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/", nil)
	req.Header.Set("Authorization", "Bearer "+house.UserToken())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))

	house.SetState("light.porch", "on", nil)
	state, _, _ := house.State("light.porch")
	fmt.Println("porch light:", state)
	// Output:
	// 200 {"message":"API running."}
	// porch light: on
}
