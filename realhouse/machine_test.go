package realhouse_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"maison/internal/realha"
)

// machineDev is what the machine's /dev holds at its top, each entry with
// its inode, after /dev/null's kind: scripts/realha may change none of it.
// It fails the test at once if /dev/null is not the character device 1,3.
func machineDev(t *testing.T) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat("/dev/null", &st); err != nil {
		t.Fatalf("the machine's /dev/null: %v", err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != 1<<8|3 {
		t.Fatalf("the machine's /dev/null is not the character device 1,3 (mode %o, device %d)", st.Mode, st.Rdev)
	}
	entries, err := os.ReadDir("/dev")
	if err != nil {
		t.Fatalf("reading the machine's /dev: %v", err)
	}
	var lines []string
	for _, e := range entries {
		var est syscall.Stat_t
		if err := syscall.Lstat(filepath.Join("/dev", e.Name()), &est); err != nil {
			continue // gone meanwhile: not something the script made
		}
		lines = append(lines, fmt.Sprintf("%s:%o:%d", e.Name(), est.Mode&syscall.S_IFMT, est.Ino))
	}
	sort.Strings(lines)
	return strings.Join(lines, " ")
}

// mount is one line of a mountinfo file: the filesystem's device, where it
// is mounted, its type and its mount options.
type mount struct{ dev, point, fstype, options string }

func mountinfo(t *testing.T, path string) []mount {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	defer f.Close()
	var ms []mount
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root point options [optional...] - fstype source super
		before, after, ok := strings.Cut(sc.Text(), " - ")
		fields, tail := strings.Fields(before), strings.Fields(after)
		if !ok || len(fields) < 6 || len(tail) < 1 {
			t.Fatalf("%s: a line that is not a mount: %q", path, sc.Text())
		}
		ms = append(ms, mount{dev: fields[2], point: fields[4], fstype: tail[0], options: fields[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return ms
}

// Home Assistant runs with a /dev and a /proc of its own: no filesystem of
// the machine's is mounted in its root (where it renames and creates files
// beside its log, as root), and nothing it mounted shows in the machine's
// mount table. Its own log is a regular file in the cache.
func TestHomeAssistantSeesNoneOfTheMachinesDev(t *testing.T) {
	h := realha.Load(t)
	if os.Geteuid() != 0 {
		t.Skip("reading Home Assistant's mounts needs root, as scripts/realha does: run the tests as root")
	}
	machineDev(t)
	root := filepath.Join(h.Cache, "root")
	pidText, err := os.ReadFile(filepath.Join(h.Cache, "run", "ha.pid"))
	if err != nil {
		t.Fatalf("Home Assistant's pid: %v", err)
	}
	pid := strings.TrimSpace(string(pidText))

	machine := map[string]string{}
	for _, m := range mountinfo(t, "/proc/self/mountinfo") {
		machine[m.dev] = m.point
		if m.point == root || strings.HasPrefix(m.point, root+"/") {
			t.Errorf("the machine's mount table holds %s (%s) in Home Assistant's root", m.point, m.fstype)
		}
	}
	want := map[string]string{"/dev": "tmpfs", "/dev/pts": "devpts", "/proc": "proc"}
	for _, m := range mountinfo(t, "/proc/"+pid+"/mountinfo") {
		if m.point != "/dev" && m.point != "/proc" && !strings.HasPrefix(m.point, "/dev/") && !strings.HasPrefix(m.point, "/proc/") {
			continue
		}
		if at, ok := machine[m.dev]; ok {
			t.Errorf("Home Assistant's %s is the machine's own %s (%s, device %s)", m.point, at, m.fstype, m.dev)
		}
		if w, ok := want[m.point]; !ok || w != m.fstype {
			t.Errorf("Home Assistant's %s is %s; want only %v", m.point, m.fstype, want)
		}
		delete(want, m.point)
		if m.point == "/proc" && !strings.HasPrefix(m.options, "ro") {
			t.Errorf("Home Assistant's /proc is mounted %s, not read-only", m.options)
		}
	}
	for point := range want {
		t.Errorf("Home Assistant has no %s of its own", point)
	}

	var inside, outside syscall.Stat_t
	if err := syscall.Stat("/proc/"+pid+"/root/dev/null", &inside); err != nil {
		t.Fatalf("Home Assistant's /dev/null: %v", err)
	}
	if err := syscall.Stat("/dev", &outside); err != nil {
		t.Fatal(err)
	}
	if inside.Mode&syscall.S_IFMT != syscall.S_IFCHR || inside.Rdev != 1<<8|3 || inside.Dev == outside.Dev {
		t.Errorf("Home Assistant's /dev/null is not a device node of its own /dev (mode %o, rdev %d, on the machine's /dev: %v)",
			inside.Mode, inside.Rdev, inside.Dev == outside.Dev)
	}
	log := filepath.Join(root, "srv/realha/config/home-assistant.log")
	if fi, err := os.Lstat(log); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("Home Assistant's own log %s is not a regular file: %v", log, err)
	}
}
