package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const (
	exitValid   = 0
	exitInvalid = 1
	exitUsage   = 2
)

var commands = map[string]*command{}

func init() {
	for _, c := range []*command{validateCommand, lintCommand, costCommand, testCommand, benchCommand, schemaCommand, upgradeCommand, conversionReviewCommand, lspCommand, applyCommand} {
		commands[c.name] = c
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole CLI, testable: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		overview(stderr)
		return exitUsage
	}
	switch args[0] {
	case "version", "--version":
		if err := printVersion(stdout); err != nil {
			return reportInputError(stderr, err)
		}
		return exitValid
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "crdlab help: unknown command %q\n\n", args[1])
				overview(stderr)
				return exitUsage
			}
			c.help(stdout)
			return exitValid
		}
		overview(stdout)
		return exitValid
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "crdlab: unknown command %q\n\n", args[0])
		overview(stderr)
		return exitUsage
	}
	return c.run(c, args[1:], stdin, stdout, stderr)
}

// reportInputError prints an input problem (file:line) and returns 2.
func reportInputError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "crdlab: %s\n", strings.TrimPrefix(err.Error(), "crdlab: "))
	return exitUsage
}
