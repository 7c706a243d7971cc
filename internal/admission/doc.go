// Package admission is kube-apiserver's admission chain for custom
// resources, evaluated offline: ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy with their bindings, as the API server's policy
// plugins evaluate them, the validation its registry runs when a policy or
// binding is created, type checking of a policy's expressions, which
// Validating/MutatingWebhookConfigurations' webhooks a request is sent to,
// and those webhooks' recorded AdmissionReview answers applied as the
// webhook dispatchers apply them. Upstream (v0.37.2):
// k8s.io/apiserver/pkg/admission/plugin/policy/{validating,mutating,generic,matching},
// plugin/cel, plugin/webhook/{generic,mutating,validating,predicates,matchconditions},
// pkg/apis/admissionregistration/validation and
// k8s.io/kubernetes' RBAC authorizer. The public facade is package
// github.com/crdlab/crdlab/admission; the differential tests are
// conformance/admission*_test.go, mutating_test.go and their oracles in
// conformance/upstream.
//
// # Files
//
// Inputs:
//
//   - types.go, mutating_types.go, webhooktypes.go: the
//     admissionregistration.k8s.io/v1 types (policies, bindings, webhook
//     configurations) with their JSON names.
//   - decode.go: strict decoding with file:line:column (DecodeFile,
//     DecodeDocument: Inputs, DecodeError) and the v1 defaults; the kinds
//     it takes (IsPolicyKind, IsWebhookKind, IsAdmissionKind);
//     DecodeDocumentServed reads the v1alpha1 and v1beta1 policies a
//     release serves (the caller says which) with their versions'
//     defaults, and refuses the others with kubectl's error.
//   - resources.go: the REST mapper of a set of CRDs (CRDResources:
//     equivalent resources, scopes) and the request of an object
//     (ObjectRequest).
//
// Validating policies:
//
//   - admitter.go: the Admitter (New from a Config: policies, bindings,
//     params, namespaces, webhooks) and Admitter.Validate, the dispatcher:
//     for each policy and binding, matching, params, then the evaluation,
//     into a Decision (denials, warnings, audit annotations by validation
//     action and failure policy).
//   - match.go: request matching (matchConstraints, matchResources: rules,
//     namespace and object selectors, matchPolicy Equivalent), shared with
//     the webhooks.
//   - env.go: the policy CEL environment (request, object, oldObject,
//     params, namespaceObject, authorizer, variables) on internal/cel's
//     DeclType constructors and internal/cel/library, per release;
//     variables are declared only when the policy has some, never for match
//     conditions (newEnvs(false)).
//   - validator.go: one policy's compile (CompileErrors, the language
//     server's diagnostics) and evaluation: match conditions, variables,
//     validations and messageExpressions, audit annotations, cost budgets.
//   - rbac.go: the `authorizer` as kube-apiserver's RBAC authorizer (and
//     system:masters) over the Role/ClusterRole/bindings among the inputs.
//   - typecheck.go, crdkind.go: TypeCheck, a policy's
//     status.typeChecking.expressionWarnings against a set of CRDs (the
//     kinds of its resource rules, each typed by the published schema;
//     CustomResourceDefinition itself from crdkind.json, which
//     conformance's TestCRDKindSchemaIsUpstreams writes).
//   - completion.go: the schemas that type object and params, for
//     internal/celcomplete's policy completion.
//
// On create:
//
//   - policyvalidation.go: what the registry checks when a policy or
//     binding is created (ValidatePolicy, ValidateBinding,
//     ValidateMutatingPolicy, ValidateMutatingBinding; Inputs.CheckCreate,
//     CreateError with errors.NewInvalid's text): expressions compile in the
//     NewExpressions environment, the ".static.k8s.io" name check, and the
//     declarative validation that reports a binding's missing policyName and
//     validationActions last. Decoding stays separate, so that the language
//     server and `crdlab lint` can read invalid policies: each caller
//     checks (the CLI as an input error, lint as entries, crdtest as a load
//     error, the module's admit op).
//
// Mutating policies (run before the schema validation):
//
//   - mutating.go: the Mutator (NewMutator, Mutator.Mutate): matching and
//     params through an Admitter, match conditions and variables through a
//     validator, the dispatcher's invocations, the reinvocation context and
//     the reinvoker's two passes; MutationResult.Outcome is the wire form.
//   - mutating_env.go: the patch-type environments (Object... and
//     JSONPatch struct types through a wrapping type provider,
//     jsonpatch.escapeKey).
//   - mutating_patch.go: ApplyConfiguration merged with
//     structured-merge-diff over internal/ssa's type converter; JSONPatch
//     with gopkg.in/evanphx/json-patch.v4.
//
// Webhooks (never called: matched, and answered by recordings):
//
//   - webhook.go: Admitter.Webhooks, which webhooks a request is sent to
//     (ShouldCallHook: the predicates of match.go, match conditions in a
//     variables-free environment).
//   - webhookresponse.go: a recorded AdmissionReview answer
//     (DecodeWebhookResponse) and the names that pick a webhook
//     (WebhookKey, Admitter.ResolveWebhook).
//   - webhookdispatch.go: Admitter.DispatchWebhooks, one dispatcher's
//     webhooks with their answers: VerifyAdmissionResponse, ToStatusErr,
//     ErrCallingWebhook under the failure policy, warnings, audit
//     annotations, the mutating webhooks' JSONPatch (bounded by
//     limits.JSONPatchMaxCopyBytes).
//
// # Callers
//
// The CLI runs the chain around the schema validation of validate and lint
// (cmd/crdlab: mutating.go, admission.go, webhookanswers.go, typecheck.go,
// policycreate.go; `crdlab lint --policy` without --old type-checks),
// crdtest around its admission cases, on custom resources and on built-in
// objects (cmd/crdlab builtinadmission.go: admission.BuiltinKinds over
// internal/builtin, which this package does not import; the Admitter puts
// namespace-less objects of namespaced kinds in "default", as kubectl
// apply does), the WebAssembly module in its admit
// op, and the language server (internal/cli/lsp policy.go) for diagnostics.
// The user's pages: docs/validating-policies.md, mutating-policies.md,
// webhooks.md, authorizer.md, policy-create-validation.md and
// policy-type-checking.md.
package admission
