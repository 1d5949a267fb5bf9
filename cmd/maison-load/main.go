//go:build unix

// Command maison-load measures maison under load and under faults, on this
// machine only: every server it drives listens on loopback, every run is
// bounded in requests and in time, and it stops by itself. It runs where
// there are Unix signals (it asks maison for its figures with SIGUSR1).
//
//	maison-load load   -maison ./maison   throughput, latency and peak memory of
//	                                      maison demo against a bare go-sdk
//	                                      server with one trivial tool, in turn
//	maison-load soak   -maison ./maison   one long mixed run: memory over time,
//	                                      goroutines back to idle afterwards
//	maison-load faults -maison ./maison   Home Assistant restarts, drops its
//	                                      websocket, stalls a camera, is slow,
//	                                      sends broken frames, under load: every
//	                                      request answered, recovery, no leak
//	maison-load worstmix -maison ./maison the largest and oddest camera frames
//	                                      through every picture tool at once:
//	                                      peak memory, each tool's times
//	maison-load bare                      the bare go-sdk server (started by load)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

const usage = `maison-load drives maison on loopback and reports what it measured.

Usage:
  maison-load load   -maison PATH [-house builtin|apart] [-clients 1,8,32] [-duration 5s] [-rounds 2] [-mixes list_cameras,tools/list,mixed,batch]
  maison-load soak   -maison PATH [-house builtin|apart] [-clients 16] [-duration 10m]
  maison-load faults -maison PATH [-clients 8] [-short]
  maison-load worstmix -maison PATH [-clients 8] [-duration 60s] [-max-rss MiB] [-fixtures fixtures/jpeg]
  maison-load bare   (the bare go-sdk server the load run compares with)
`

// Bounds that hold whatever the flags say.
const (
	maxClients  = 256
	maxDuration = 30 * time.Minute
	maxRequests = 5_000_000
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "bare":
		err = serveBare(ctx, os.Stdout)
	case "load", "soak", "faults", "worstmix":
		err = runCommand(ctx, os.Args[1], os.Args[2:])
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "maison-load %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// options are the flags of load, soak and faults.
type options struct {
	maison   string
	clients  []int
	duration time.Duration
	rounds   int
	mixes    []string
	short    bool
	logs     string
	house    string // builtin (maison demo) or apart (maison serve, the house in this process)
	fixtures string // worstmix: fixtures/jpeg, for the 12-bit frame
	maxRSS   int64  // worstmix: fail past this peak resident memory, bytes; 0 for none
}

// what says which maison is measured.
func (o options) what() string {
	if o.house == "apart" {
		return "maison serve, the demo house in the load generator's process"
	}
	return "maison demo, the demo house in maison's process"
}

func runCommand(ctx context.Context, cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	var o options
	var clients, mixes string
	fs.StringVar(&o.maison, "maison", "maison", "the maison binary to run")
	defClients, defDuration := "1,8,32", 5*time.Second
	switch cmd {
	case "soak":
		defClients, defDuration = "16", 10*time.Minute
	case "faults":
		defClients = "8"
	case "worstmix":
		defClients, defDuration = "8", 60*time.Second
	}
	var maxRSS int64
	fs.Int64Var(&maxRSS, "max-rss", 0, "worstmix: fail when maison's peak resident memory passes this many MiB")
	fs.StringVar(&o.fixtures, "fixtures", "fixtures/jpeg", "worstmix: the directory of the JPEG fixtures")
	fs.StringVar(&clients, "clients", defClients, "concurrent clients, a comma-separated list")
	fs.DurationVar(&o.duration, "duration", defDuration, "how long each measured phase lasts")
	fs.IntVar(&o.rounds, "rounds", 2, "load: how many times bare and maison take turns")
	fs.StringVar(&mixes, "mixes", "list_cameras,tools/list,mixed,batch", "load: the mixes to run")
	fs.BoolVar(&o.short, "short", false, "faults: shorter faults, for CI")
	fs.StringVar(&o.logs, "logs", "", "write maison's log to this file")
	fs.StringVar(&o.house, "house", "builtin", "load, soak: builtin runs maison demo; apart runs maison serve against a demo house in this process, so maison's memory is its own")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if o.clients, err = intList(clients); err != nil {
		return err
	}
	o.mixes = splitList(mixes)
	if o.duration <= 0 || o.duration > maxDuration {
		return fmt.Errorf("-duration %s: give at most %s", o.duration, maxDuration)
	}
	if o.rounds < 1 || o.rounds > 10 {
		return fmt.Errorf("-rounds %d: give 1 to 10", o.rounds)
	}
	o.maxRSS = maxRSS << 20
	switch cmd {
	case "worstmix":
		res, err := runWorstMix(ctx, o, os.Stdout)
		if err != nil {
			return err
		}
		return res.lateErr()
	case "load":
		return runLoad(ctx, o)
	case "soak":
		return runSoak(ctx, o)
	}
	return runFaults(ctx, o)
}
