// Package builtin answers requests for Kubernetes' built-in kinds
// (ConfigMap, Secret, Deployment, ...) as kube-apiserver does, offline:
// issue 31's foundation.
//
// # The API surface
//
// surface.tsv is what each release (1.31 … 1.38) serves by default: group,
// version, kind, resource, scope, short names, subresources, verbs and the
// prerelease lifecycle (deprecated in, removed in, replacement) of each
// resource. tools/builtinsurface generates it from upstream data (the
// discovery documents k8s.io/kubernetes checks in at each release, the
// betas pkg/controlplane still enables by default, k8s.io/api's
// zz_generated.prerelease-lifecycle.go); it is embedded as text (11 KB)
// and parsed once, on first use. Lookup answers whether a release serves
// an apiVersion and kind; NoMatchError is kubectl's text when it does not
// (extensions/v1beta1 Ingress, policy/v1beta1 PodSecurityPolicy, a typo);
// Resource.DeprecationWarning is the API server's warning for a deprecated
// version it still serves (flowcontrol.apiserver.k8s.io/v1beta3 at 1.31).
//
// # One request path
//
// Serve is the request path of a create or update, in upstream's order:
// the handler (decoding with the resource's codec, the request namespace,
// the owner-reference deduplication), the generic store (name generation,
// optimistic concurrency) and rest.BeforeCreate / rest.BeforeUpdate around
// the resource's Strategy — upstream's registry strategy
// (PrepareForCreate, Validate, WarningsOnCreate, Canonicalize and their
// update counterparts) plus what its codec does on decoding (New: the
// typed object; Decoded: the scheme defaults and the conversion). It is
// the shape of engine's path for custom resources (engine/handler.go,
// store.go, strategy.go), whose strategy is the custom-resource one; the
// engine keeps its own copy of the path for now (see RATIONALE.md, "Built-in
// kinds").
//
// Decoding is upstream's own decoder, sigs.k8s.io/json (UnmarshalStrict
// for Strict and Warn, UnmarshalCaseSensitivePreserveInts for Ignore),
// into Go types with k8s.io/api's JSON shape and type names (package
// corev1, named v1): unknown and duplicate fields, type errors ("json:
// cannot unmarshal number into Go struct field ConfigMap.data of type
// string") and base64 errors come out with upstream's texts and order.
//
// # Around the admission chain
//
// Kinds (admitted.go) is the request path at one release as the admission
// chain needs it (admission.BuiltinKinds, implemented in cmd/crdlab): the
// object mutating admission sees (Admitted: decoded, defaulted, converted,
// in the request's namespace), what the mutating dispatcher does after a
// patch (Redefault: back into the Go type, defaulted), and the strategy's
// answer between mutating and validating admission (Serve). The kinds
// without a Strategy pass as written.
//
// # What is exact
//
// The kinds with a Strategy (StrategyFor) are validated natively: v1
// ConfigMap, Secret, Namespace, ServiceAccount, scheduling.k8s.io/v1
// PriorityClass and networking.k8s.io/v1 IngressClass — decoding,
// defaults (a Secret's type, a Namespace's kubernetes.io/metadata.name
// label, phase and kubernetes finalizer, a PriorityClass's preemption
// policy, an IngressClass's parameters scope), validation with each kind's name
// rule, immutability, warnings, and the stored object (what `kubectl create
// --dry-run=server -o yaml` prints, without the uid and creationTimestamp).
// conformance/builtin_test.go runs them against kube-apiserver 1.37's
// decoding, defaulting and registry strategies. For every other kind a
// release serves, Serve checks the API surface only (Outcome.Modelled is
// false): the caller must say so, never "valid".
//
// Where upstream ranges over a Go map (the keys of data, labels,
// annotations), its errors come in a random order; crdlab sorts keys.
package builtin
