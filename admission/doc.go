// Package admission runs kube-apiserver's validating admission policies
// offline: ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
// (admissionregistration.k8s.io/v1) evaluated on a request as the API
// server 1.37's ValidatingAdmissionPolicy plugin does (matching, params,
// matchConditions, variables, validations, audit annotations, validation
// actions and failure policies), with the API server's texts; and
// MutatingAdmissionPolicy with its binding (NewMutator, mutating.go).
//
// See docs/admission.md for what is modelled and the known differences.
package admission

import (
	iadm "github.com/crdlab/crdlab/internal/admission"
)

// Types of the policy API and of requests and decisions.
type (
	Policy     = iadm.Policy
	Binding    = iadm.Binding
	Inputs     = iadm.Inputs
	Request    = iadm.Request
	UserInfo   = iadm.UserInfo
	Decision   = iadm.Decision
	Denial     = iadm.Denial
	Config     = iadm.Config
	Resources  = iadm.Resources
	Equivalent = iadm.Equivalent
	GVK        = iadm.GVK
	GVR        = iadm.GVR
	Admitter   = iadm.Admitter
	// DecodeError locates a policy or binding that does not decode.
	DecodeError = iadm.DecodeError
)

// DecodeFile reads the documents of a YAML stream or JSON file: policies,
// bindings (strictly, errors at file:line:column) and other objects
// (params, Namespaces).
func DecodeFile(data []byte, file string) (*Inputs, error) { return iadm.DecodeFile(data, file) }

// DecodeObject decodes a JSON object as the API server holds it
// (integers int64, other numbers float64).
func DecodeObject(data []byte) (map[string]interface{}, error) { return iadm.DecodeObject(data) }

// New compiles the policies of cfg.
func New(cfg Config) (*Admitter, error) { return iadm.New(cfg) }

// DefaultNamespace is the Namespace assumed for a request's namespace that
// is not among the inputs.
func DefaultNamespace(name string) map[string]interface{} { return iadm.DefaultNamespace(name) }

// DefaultOptions is the options object of an operation when none is given.
func DefaultOptions(op string) map[string]interface{} { return iadm.DefaultOptions(op) }

// IsPolicyKind reports whether apiVersion/kind is a policy or binding kind.
func IsPolicyKind(apiVersion, kind string) bool { return iadm.IsPolicyKind(apiVersion, kind) }
