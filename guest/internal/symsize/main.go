// Command symsize reports what takes room in a WebAssembly module built by
// Go: the size of every section, then code bytes per Go package (from the
// function bodies of the code section and the "name" custom section, so
// the module must be linked without -s). `go tool nm` does not read wasm;
// this is its equivalent for `make wasm-size`.
//
//	go run ./guest/internal/symsize [-n 30] [-funcs 0] module.wasm
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/guest/internal/symsize/wasmfile"
)

func main() {
	top := flag.Int("n", 30, "packages to list")
	mainPkg := flag.String("pkg", "./guest/wasip1", "the main package the module was built from (for `go list -deps`)")
	funcs := flag.Int("funcs", 0, "largest functions to list")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: symsize [-n N] [-funcs N] module.wasm")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	m, err := wasmfile.Parse(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "symsize:", err)
		os.Exit(1)
	}
	fmt.Printf("%-24s %10s\n", "section", "bytes")
	for _, s := range m.Sections {
		fmt.Printf("%-24s %10d\n", s.Name, s.Size)
	}
	fmt.Printf("%-24s %10d\n\n", "total", len(data))
	if len(m.Funcs) == 0 {
		fmt.Println("no function names (built with -s?): build without -ldflags=-s to list packages")
		return
	}
	known := wasmfile.Packages{}
	list := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", *mainPkg)
	list.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := list.Output(); err == nil {
		known = wasmfile.NewPackages(strings.Fields(string(out)))
	} else {
		fmt.Fprintf(os.Stderr, "symsize: go list %s: %v (package names stay mangled)\n", *mainPkg, err)
	}
	byPkg := map[string]int{}
	count := map[string]int{}
	var code int
	for _, f := range m.Funcs {
		p := known.Package(f.Name)
		byPkg[p] += f.Size
		count[p]++
		code += f.Size
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if byPkg[pkgs[i]] != byPkg[pkgs[j]] {
			return byPkg[pkgs[i]] > byPkg[pkgs[j]]
		}
		return pkgs[i] < pkgs[j]
	})
	fmt.Printf("code by package (%d functions, %d bytes)\n%10s %6s %6s  %s\n", len(m.Funcs), code, "bytes", "%", "funcs", "package")
	for i, p := range pkgs {
		if i == *top {
			break
		}
		fmt.Printf("%10d %5.1f%% %6d  %s\n", byPkg[p], 100*float64(byPkg[p])/float64(code), count[p], p)
	}
	groups := map[string]int{}
	for p, n := range byPkg {
		groups[wasmfile.Group(p)] += n
	}
	gs := make([]string, 0, len(groups))
	for g := range groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool { return groups[gs[i]] > groups[gs[j]] })
	fmt.Printf("\ncode by module\n")
	for _, g := range gs {
		fmt.Printf("%10d %5.1f%%  %s\n", groups[g], 100*float64(groups[g])/float64(code), g)
	}
	if *funcs > 0 {
		fs := append([]wasmfile.Func(nil), m.Funcs...)
		sort.Slice(fs, func(i, j int) bool { return fs[i].Size > fs[j].Size })
		fmt.Printf("\nlargest functions\n")
		for i, f := range fs {
			if i == *funcs {
				break
			}
			fmt.Printf("%10d  %s\n", f.Size, strings.TrimSpace(f.Name))
		}
	}
}
