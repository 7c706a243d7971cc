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
// ConfigMap, Secret, Namespace, ServiceAccount (core.go),
// scheduling.k8s.io/v1 PriorityClass (scheduling.go), networking.k8s.io/v1
// IngressClass (networking.go), rbac.authorization.k8s.io/v1 Role,
// ClusterRole, RoleBinding, ClusterRoleBinding (rbac.go, types in
// rbacv1), coordination.k8s.io/v1 Lease and policy/v1 PodDisruptionBudget
// (policy.go), storage.k8s.io/v1 StorageClass (storage.go),
// networking.k8s.io/v1 NetworkPolicy (networkpolicy.go, CIDRs in
// cidr.go) and the workloads below — decoding,
// defaults (a Secret's type, a Namespace's kubernetes.io/metadata.name
// label, phase and kubernetes finalizer, a PriorityClass's preemption
// policy, an IngressClass's parameters scope, a binding's apiGroups, a
// StorageClass's reclaim policy and binding mode), validation with each
// kind's name rule, immutability, warnings, and the stored object (what
// `kubectl create --dry-run=server -o yaml` prints, without the uid and
// creationTimestamp). Shared pieces: metav1's label selector validation
// (labelselector.go), the int-or-percent checks (intorpercent.go).
//
// # Declarative validation
//
// From 1.36 the API server also runs the validation tags of a kind's
// versioned type; the ones enforced at a release (standard tags, and beta
// ones with the DeclarativeValidationBeta gate, on by default) replace the
// handwritten errors they cover, and their errors come after the others,
// with their own texts. A strategy whose kind has such tags implements
// declarativeStrategy (declarative.go): RBAC's required verbs and names
// and StorageClass's required provisioner and immutable fields from 1.37,
// NetworkPolicy's required ipBlock cidr from 1.37, a binding's roleRef
// immutability from 1.38 (internal/kubeversion's RBACRequiredDeclarative,
// StorageClassDeclarative, NetworkPolicyDeclarative,
// RBACRoleRefImmutableDeclarative). A tag skips a field equal to the old
// object's on update, as upstream's generated validation does. Alpha tags are not enforced and are
// not modelled.
// conformance/builtin_test.go runs them against kube-apiserver 1.37's
// decoding, defaulting and registry strategies.
//
// The workloads apps/v1 Deployment, ReplicaSet, DaemonSet (apps.go,
// apps_sets.go) and batch/v1 Job (batch.go: its generated selector and
// labels carry GeneratedJobUID, the uid crdlab assumes) embed a pod
// template: its scheme defaults are
// poddefaults.go's, its validation podvalidation.go's and its warnings
// podwarnings.go's — the part of k8s.io/kubernetes' pod-spec validation
// crdlab models, in upstream's order. Their strategies are partial
// (partialStrategy): coverage.go lists the fields set in a template whose
// validation is not modelled (a whitelist of modelled paths walked over the
// object, plus values such as hugepages and dnsPolicy None), and Serve
// returns them in Outcome.Unmodelled, so that an object that passed what
// crdlab checks is reported as partial, never valid, when it sets any.
//
// For every other kind a
// release serves, Serve decodes the body by the release's OpenAPI schema
// (Outcome.SchemaChecked; Outcome.Modelled is false): the caller must say
// that native validation did not run, never "valid".
//
// # Schemas
//
// schemas.json.gz (tools/builtinsurface, from k8s.io/kubernetes's
// api/openapi-spec/v3 at each release tag) holds the OpenAPI v3 schema of
// every kind each release serves, without descriptions or defaults, each
// node with its Go type as k8s.io/api declares it ("int32",
// "[]v1.Container", "v1.ResourceList"). Definitions are stored once across
// kinds and releases, and each release stores only the definitions that
// differ from the release before (35.6 KB compressed for 1.31–1.38). The
// file is decompressed on first use, a release's table built on the first
// request at that release.
//
// SchemaFor gives a kind's schema as a structural schema
// (internal/schema), definitions inlined, for the OpenAPI validator,
// pruning, CEL declarations, the field manager and completion, with the Go
// type of each definition and the strategic-merge-patch extensions by field
// path (kept out of internal/schema's type, which the WebAssembly module
// links). The schema decoder (schemadecode.go) is what
// partial kinds get: it walks a body as sigs.k8s.io/json walks it into
// the Go types and says what it says — unknown and duplicate fields (strict
// errors, or Warn's warnings), type errors ("json: cannot unmarshal string
// into Go struct field DeploymentSpec.spec.replicas of type int32"), and
// the UnmarshalJSON errors of metav1.Time, MicroTime, Duration,
// resource.Quantity and intstr.IntOrString, and base64 bytes.
// conformance/builtin_schema_test.go compares it with kube-apiserver
// 1.37's decoder.
//
// Where upstream ranges over a Go map (the keys of data, labels,
// annotations), its errors come in a random order; crdlab sorts keys.
package builtin
