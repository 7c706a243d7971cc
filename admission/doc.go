// Package admission runs kube-apiserver's validating admission policies
// offline: ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
// (admissionregistration.k8s.io/v1) evaluated on a request as the API
// server 1.37's ValidatingAdmissionPolicy plugin does (matching, params,
// matchConditions, variables, validations, audit annotations, validation
// actions and failure policies), with the API server's texts; and
// MutatingAdmissionPolicy with its binding (NewMutator, mutating.go).
//
// It also tells which admission webhooks of ValidatingWebhookConfigurations
// and MutatingWebhookConfigurations a request would be sent to
// (Admitter.Webhooks), as the API server's webhook plugins decide it; the
// webhooks are not called.
//
// See docs/validating-policies.md, docs/mutating-policies.md,
// docs/webhooks.md and docs/authorizer.md for what is modelled and the
// known differences.
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
	// WebhookConfiguration is a Validating- or MutatingWebhookConfiguration.
	WebhookConfiguration = iadm.WebhookConfiguration
	// WebhookCall is whether one webhook is called for a request, and why not.
	WebhookCall = iadm.WebhookCall
	// WebhookTarget is the resource and kind a webhook is called with.
	WebhookTarget = iadm.WebhookTarget
	// WebhookResponse is a webhook's recorded AdmissionReview answer
	// (DecodeWebhookResponse).
	WebhookResponse = iadm.WebhookResponse
	// WebhookAnswer is what the API server makes of a called webhook's
	// recorded answer.
	WebhookAnswer = iadm.WebhookAnswer
	// WebhookDispatch is Admitter.DispatchWebhooks' result: the calls,
	// the patched object, the request's failure, warnings and audit
	// annotations.
	WebhookDispatch = iadm.WebhookDispatch
	// DecodeError locates a policy or binding that does not decode.
	DecodeError = iadm.DecodeError
	// CreateError is a policy or binding the API server refuses to create
	// (Inputs.CreateErrors, Inputs.CheckCreate): its file:line and the
	// API server's field errors.
	CreateError = iadm.CreateError
)

// DecodeFile reads the documents of a YAML stream or JSON file: policies,
// bindings (strictly, errors at file:line:column) and other objects
// (params, Namespaces).
func DecodeFile(data []byte, file string) (*Inputs, error) { return iadm.DecodeFile(data, file) }

// DecodeObject decodes a JSON object as the API server holds it
// (integers int64, other numbers float64).
func DecodeObject(data []byte) (map[string]interface{}, error) { return iadm.DecodeObject(data) }

// The outcomes of a webhook's recorded answer (WebhookAnswer.Outcome).
const (
	AnswerAllowed = iadm.AnswerAllowed
	AnswerPatched = iadm.AnswerPatched
	AnswerDenied  = iadm.AnswerDenied
	AnswerFailed  = iadm.AnswerFailed
	AnswerIgnored = iadm.AnswerIgnored
)

// DecodeWebhookResponse reads a webhook's recorded admission.k8s.io/v1
// AdmissionReview answer (JSON) for Admitter.DispatchWebhooks, keyed by
// WebhookKey. Only what cannot be read at all is an error: a wrong
// apiVersion, a missing response or a mismatched uid is the webhook's
// failure, decided under its failurePolicy when it is called.
func DecodeWebhookResponse(js []byte) (*WebhookResponse, error) {
	return iadm.DecodeWebhookResponse(js)
}

// WebhookKey names a webhook of a configuration ("configuration/webhook"),
// the key of DispatchWebhooks' answers.
func WebhookKey(configuration, webhook string) string { return iadm.WebhookKey(configuration, webhook) }

// New compiles the policies of cfg.
func New(cfg Config) (*Admitter, error) { return iadm.New(cfg) }

// DefaultNamespace is the Namespace assumed for a request's namespace that
// is not among the inputs.
func DefaultNamespace(name string) map[string]interface{} { return iadm.DefaultNamespace(name) }

// DefaultOptions is the options object of an operation when none is given.
func DefaultOptions(op string) map[string]interface{} { return iadm.DefaultOptions(op) }

// IsPolicyKind reports whether apiVersion/kind is a policy or binding kind.
func IsPolicyKind(apiVersion, kind string) bool { return iadm.IsPolicyKind(apiVersion, kind) }

// APIGroup is the group of the policy, binding and webhook configuration
// kinds.
const APIGroup = iadm.APIGroup

// IsAdmissionKind reports whether apiVersion/kind is a policy, binding or
// webhook configuration kind.
func IsAdmissionKind(apiVersion, kind string) bool { return iadm.IsAdmissionKind(apiVersion, kind) }

// CRDResources answers Resources from a set of CRDs: a CRD's versions
// are equivalent resources (as its handler registers them), its scope is its kind's; other kinds
// are built-in.
type CRDResources = iadm.CRDResources

// ObjectRequest completes a request for one object of kind
// apiVersion/kind stored as resource plural, after validation: kind,
// resource, the object's name and namespace (unless keepNameNS: the
// request names them), Object and OldObject by operation.
func ObjectRequest(req Request, apiVersion, kind, plural string, namespaced bool, obj, old map[string]interface{}, keepNameNS bool) Request {
	return iadm.ObjectRequest(req, apiVersion, kind, plural, namespaced, obj, old, keepNameNS)
}

// ObjectOf is an object as the engine returns it (engine.Result's Object,
// json.Number numbers) as policies see it; nil for nil.
func ObjectOf(v interface{}) (map[string]interface{}, error) { return iadm.ObjectOf(v) }
