//go:build unix

package redistest

import "syscall"

// Pause stops the server answering (SIGSTOP) until Resume: a slow store.
func (s *Server) Pause() { s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume lets a paused server answer again.
func (s *Server) Resume() { s.cmd.Process.Signal(syscall.SIGCONT) }
