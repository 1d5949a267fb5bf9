//go:build unix

package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"maison/internal/redistest"
)

// store is the Redis server a fault run kills and starts again, on
// loopback, its append-only file in a directory of its own.
type store struct {
	bin, dir, url string
	port          int

	mu  sync.Mutex
	cmd *exec.Cmd
}

// startStore starts a Redis (or Valkey) server for maison's state, or
// returns nil when none is installed.
func startStore(ctx context.Context) (*store, error) {
	bin := redistest.Binary()
	if bin == "" {
		return nil, nil
	}
	dir, err := os.MkdirTemp("", "maison-load-state-")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &store{bin: bin, dir: dir, port: port, url: "redis://127.0.0.1:" + strconv.Itoa(port)}
	return s, s.start(ctx)
}

// start starts the server, with what it kept.
func (s *store) start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cmd = exec.CommandContext(ctx, s.bin, redistest.Args(s.port, s.dir)...)
	if err := s.cmd.Start(); err != nil {
		return err
	}
	return redistest.Wait("127.0.0.1:"+strconv.Itoa(s.port), 10*time.Second)
}

// kill stops the server at once, as a crash would.
func (s *store) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
	s.cmd = nil
}
