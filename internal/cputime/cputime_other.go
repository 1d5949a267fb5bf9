//go:build !unix

package cputime

func nanos() int64 { return 0 }
