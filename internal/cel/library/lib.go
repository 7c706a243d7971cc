package library

import (
	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/internal/keys"
)

// kubeLib is the shape shared by all Kubernetes libraries: a singleton CEL
// library with a name, its types and its function declarations.
type kubeLib struct {
	name     string
	types    []*cel.Type
	decls    func() map[string][]cel.FunctionOpt
	preOpts  []cel.EnvOption // options placed before the functions (cel.Types for ip/cidr)
	progOpts []cel.ProgramOption
}

// LibraryName implements cel.SingletonLibrary.
func (l *kubeLib) LibraryName() string { return l.name }

// Types lists the CEL types the library introduces.
func (l *kubeLib) Types() []*cel.Type { return l.types }

// CompileOptions implements cel.Library. Upstream ranges over a map (random
// order); declaration order of distinct function names has no observable
// effect, so names are sorted here for determinism.
func (l *kubeLib) CompileOptions() []cel.EnvOption {
	decls := l.decls()
	names := keys.Sorted(decls)
	opts := append([]cel.EnvOption{}, l.preOpts...)
	for _, n := range names {
		opts = append(opts, cel.Function(n, decls[n]...))
	}
	return opts
}

// ProgramOptions implements cel.Library.
func (l *kubeLib) ProgramOptions() []cel.ProgramOption { return l.progOpts }

func newLib(name string, types []*cel.Type, decls func() map[string][]cel.FunctionOpt) *kubeLib {
	return &kubeLib{name: name, types: types, decls: decls}
}
