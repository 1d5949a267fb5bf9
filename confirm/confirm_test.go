package confirm

import (
	"errors"
	"strings"
	"testing"
	"time"
)

type args struct {
	Name string `json:"name"`
}

func TestRedeemOnceForTheSameCallToolAndArgs(t *testing.T) {
	s := New(nil)
	code, exp, err := s.Propose("alice", "turn_off", args{"front door lock"})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(exp); d < time.Minute || d > TTL {
		t.Errorf("expires in %v, want about two minutes", d)
	}
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, strings.ToUpper(code)); err != nil {
		t.Fatalf("a fresh confirmation was refused: %v", err)
	}
}

// The five ways a confirmation is refused, each with the same error.
func TestRefusalsAreOneAndTheSame(t *testing.T) {
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := New([]byte("a key of the house"))
	s.now = func() time.Time { return clock }
	propose := func() string {
		code, _, err := s.Propose("alice", "turn_off", args{"front door lock"})
		if err != nil {
			t.Fatal(err)
		}
		return code
	}
	cases := map[string]func() error{
		"unknown": func() error {
			return s.Redeem("alice", "turn_off", args{"front door lock"}, "c-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
		},
		"expired": func() error {
			code := propose()
			clock = clock.Add(TTL + time.Second)
			defer func() { clock = clock.Add(-TTL - time.Second) }()
			return s.Redeem("alice", "turn_off", args{"front door lock"}, code)
		},
		"someone else's": func() error {
			return s.Redeem("mallory", "turn_off", args{"front door lock"}, propose())
		},
		"already used": func() error {
			code := propose()
			if err := s.Redeem("alice", "turn_off", args{"front door lock"}, code); err != nil {
				t.Fatalf("first use refused: %v", err)
			}
			return s.Redeem("alice", "turn_off", args{"front door lock"}, code)
		},
		"another tool": func() error {
			return s.Redeem("alice", "turn_on", args{"front door lock"}, propose())
		},
		"other arguments": func() error {
			return s.Redeem("alice", "turn_off", args{"back door lock"}, propose())
		},
		"another key": func() error {
			return New([]byte("another house")).Redeem("alice", "turn_off", args{"front door lock"}, propose())
		},
		"garbage": func() error { return s.Redeem("alice", "turn_off", args{"front door lock"}, "yes, go ahead") },
	}
	for name, try := range cases {
		if err := try(); !errors.Is(err, ErrInvalid) || err.Error() != ErrInvalid.Error() {
			t.Errorf("%s: err = %v, want exactly ErrInvalid", name, err)
		}
	}
}

func FuzzRedeem(f *testing.F) {
	s := New([]byte("k"))
	code, _, _ := s.Propose("a", "t", args{"x"})
	f.Add(code)
	f.Add("c-")
	f.Fuzz(func(t *testing.T, code string) {
		_ = s.Redeem("a", "t", args{"x"}, code) // must not panic
	})
}
