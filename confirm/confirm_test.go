package confirm

import (
	"errors"
	"strings"
	"testing"
	"time"

	"maison/state"
)

type args struct {
	Name string `json:"name"`
}

func TestRedeemOnceForTheSameCallToolAndArgs(t *testing.T) {
	t.Parallel()
	s := New(nil)
	code, exp, err := s.Propose("alice", "turn_off", args{"front door lock"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(exp); d < time.Minute || d > TTL {
		t.Errorf("expires in %v, want about two minutes", d)
	}
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, strings.ToUpper(code)); err != nil {
		t.Fatalf("a fresh confirmation was refused: %v", err)
	}
}

// The five ways a confirmation is refused, each with the same error.
func TestRefusalsAreOneAndTheSame(t *testing.T) {
	t.Parallel()
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := New([]byte("a key of the house"))
	s.now = func() time.Time { return clock }
	propose := func() string {
		code, _, err := s.Propose("alice", "turn_off", args{"front door lock"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return code
	}
	cases := map[string]func() error{
		"unknown": func() error {
			return s.Redeem("alice", "turn_off", args{"front door lock"}, nil, "c-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
		},
		"expired": func() error {
			code := propose()
			clock = clock.Add(TTL + time.Second)
			defer func() { clock = clock.Add(-TTL - time.Second) }()
			return s.Redeem("alice", "turn_off", args{"front door lock"}, nil, code)
		},
		"someone else's": func() error {
			return s.Redeem("mallory", "turn_off", args{"front door lock"}, nil, propose())
		},
		"already used": func() error {
			code := propose()
			if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, code); err != nil {
				t.Fatalf("first use refused: %v", err)
			}
			return s.Redeem("alice", "turn_off", args{"front door lock"}, nil, code)
		},
		"another tool": func() error {
			return s.Redeem("alice", "turn_on", args{"front door lock"}, nil, propose())
		},
		"other arguments": func() error {
			return s.Redeem("alice", "turn_off", args{"back door lock"}, nil, propose())
		},
		"another key": func() error {
			return New([]byte("another house")).Redeem("alice", "turn_off", args{"front door lock"}, nil, propose())
		},
		"garbage": func() error { return s.Redeem("alice", "turn_off", args{"front door lock"}, nil, "yes, go ahead") },
	}
	for name, try := range cases {
		if err := try(); !errors.Is(err, ErrInvalid) || err.Error() != ErrInvalid.Error() {
			t.Errorf("%s: err = %v, want exactly ErrInvalid", name, err)
		}
	}
}

func FuzzRedeem(f *testing.F) {
	s := New([]byte("k"))
	code, _, _ := s.Propose("a", "t", args{"x"}, nil)
	f.Add(code)
	f.Add("c-")
	f.Fuzz(func(t *testing.T, code string) {
		_ = s.Redeem("a", "t", args{"x"}, nil, code) // must not panic
	})
}

// A confirmation holds only for the devices its call reached when it was
// proposed: the same words now reaching another device are told apart
// from an invalid confirmation, and the confirmation is used up either way.
func TestConfirmationBoundToDevices(t *testing.T) {
	t.Parallel()
	s := New([]byte("k"))
	code, _, err := s.Propose("alice", "turn_off", args{"bob"}, []string{"lock.office"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Redeem("alice", "turn_off", args{"bob"}, []string{"lock.front_door"}, code); !errors.Is(err, ErrChanged) {
		t.Errorf("another device: %v, want ErrChanged", err)
	}
	if err := s.Redeem("alice", "turn_off", args{"bob"}, []string{"lock.office"}, code); !errors.Is(err, ErrInvalid) {
		t.Errorf("the same confirmation again, for its own device: %v, want ErrInvalid", err)
	}
	code, _, _ = s.Propose("alice", "turn_off", args{"bob"}, []string{"lock.b", "lock.a"})
	if err := s.Redeem("alice", "turn_off", args{"bob"}, []string{"lock.a", "lock.b"}, code); err != nil {
		t.Errorf("the same devices in another order: %v", err)
	}
	code, _, _ = s.Propose("alice", "turn_off", args{"bob"}, []string{"lock.office"})
	if err := s.Redeem("mallory", "turn_off", args{"bob"}, []string{"lock.front_door"}, code); !errors.Is(err, ErrInvalid) {
		t.Errorf("someone else's confirmation, other devices: %v, want ErrInvalid", err)
	}
}

// A confirmation used before maison restarted on the same file, with the
// same key, stays used; one whose use the store cannot record is refused
// as unchecked and stays usable.
func TestUsedConfirmationsOutliveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key := []byte("a key of the house, the same after the restart")
	f, err := state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStored(key, f)
	used, _, _ := s.Propose("alice", "turn_off", args{"front door lock"}, nil)
	waiting, _, _ := s.Propose("alice", "turn_off", args{"front door lock"}, nil)
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, used); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, waiting); !errors.Is(err, ErrUnchecked) || !errors.Is(err, state.ErrUnavailable) {
		t.Fatalf("with the store closed: %v, want ErrUnchecked and state.ErrUnavailable", err)
	}
	f, err = state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s = NewStored(key, f)
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, used); !errors.Is(err, ErrInvalid) {
		t.Errorf("a code used before the restart: %v, want ErrInvalid", err)
	}
	if err := s.Redeem("alice", "turn_off", args{"front door lock"}, nil, waiting); err != nil {
		t.Errorf("a code not used before the restart (its use was unchecked): %v, want accepted", err)
	}
}

// Which codes and links were used is kept in memory unless a store lasts:
// then what one process made ends with it, whatever MAISON_CONFIRM_KEY
// says, or a code or a link answered before a restart would count again
// after it. With a store that lasts, the key alone decides.
func TestWhatAProcessForgetsEndsWithIt(t *testing.T) {
	t.Parallel()
	key := []byte("the same key on every start")
	before, after := NewStored(key, nil), NewStored(key, nil)
	if _, err := after.Open("p", before.Seal("p", []byte("x"))); err == nil {
		t.Error("a link sealed before a restart, answers kept in memory, opens after it")
	}
	code, _, err := before.Propose("c", "turn_off", map[string]any{"name": "Front Door"}, []string{"lock.front"})
	if err != nil {
		t.Fatal(err)
	}
	if err := after.Redeem("c", "turn_off", map[string]any{"name": "Front Door"}, []string{"lock.front"}, code); err == nil {
		t.Error("a code made before a restart, answers kept in memory, counts after it")
	}
	f, err := state.OpenFile(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := NewStored(key, f).Open("p", NewStored(key, f).Seal("p", []byte("x"))); err != nil {
		t.Errorf("a link sealed with a lasting store does not open on the next start: %v", err)
	}
}
