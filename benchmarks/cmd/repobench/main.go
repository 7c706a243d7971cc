// Command repobench runs validators over the same repository and prints a
// Markdown table of wall time, CPU time (user+system) and peak RSS (the
// child's rusage), the best of -count runs by CPU time, plus each tool's
// exit status and the last line of its output. Each tool is a
// "name=command line" argument, run with sh -c.
//
//	go run ./cmd/repobench -count 3 'crdlab=build/crdlab validate -R --crd repo/crds repo/manifests --summary' ...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

type result struct {
	wall, cpu time.Duration
	rssKB     int64
	exit      int
	tail      string
}

func main() {
	count := flag.Int("count", 3, "runs per tool (the best by CPU time is kept)")
	flag.Parse()
	fmt.Println("| tool | wall | CPU (user+sys) | peak RSS | exit | last line |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | --- |")
	for _, arg := range flag.Args() {
		name, cmdline, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "repobench: %q is not name=command\n", arg)
			os.Exit(2)
		}
		var best *result
		for i := 0; i < *count; i++ {
			r, err := runOnce(cmdline)
			if err != nil {
				fmt.Fprintf(os.Stderr, "repobench: %s: %v\n", name, err)
				os.Exit(2)
			}
			fmt.Fprintf(os.Stderr, "%s run %d: wall %.2fs cpu %.2fs rss %d MB exit %d\n", name, i+1, r.wall.Seconds(), r.cpu.Seconds(), r.rssKB/1024, r.exit)
			if best == nil || r.cpu < best.cpu {
				best = r
			}
		}
		fmt.Printf("| %s | %.1f s | %.1f s | %d MB | %d | `%s` |\n", name, best.wall.Seconds(), best.cpu.Seconds(), best.rssKB/1024, best.exit, best.tail)
	}
}

func runOnce(cmdline string) (*result, error) {
	cmd := exec.Command("sh", "-c", cmdline)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return nil, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return nil, fmt.Errorf("no rusage")
	}
	r := &result{
		wall:  wall,
		cpu:   time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		rssKB: ru.Maxrss,
		exit:  cmd.ProcessState.ExitCode(),
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	r.tail = strings.ReplaceAll(lines[len(lines)-1], "|", "\\|")
	if len(r.tail) > 120 {
		r.tail = r.tail[:120] + "…"
	}
	return r, nil
}
