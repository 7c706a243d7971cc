package kubeversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is a Kubernetes minor release 1.<minor>; the zero value is Default.
type Release struct{ minor uint8 }

const (
	// Default is the release crdlab reproduces when none is asked for: the
	// newest GA release it supports (1.38 is a beta until its v0.38.0
	// modules are served; it becomes Default by changing this line once
	// they are pinned).
	Default = 37
	// Newest is the newest release crdlab knows (the top of the changes
	// table).
	Newest = 38
	// Oldest is the oldest release with a differential oracle
	// (conformance/versions).
	Oldest = 31
	// AdmissionMinor is the release whose admission (validating and
	// mutating admission policies, webhook matching, the authorizer) and
	// server-side apply crdlab models at every release (the conformance
	// module's in-process oracle is 1.37's).
	AdmissionMinor = 37
)

// Of returns the release 1.<minor>; minor is not checked (see Parse).
func Of(minor int) Release {
	if minor == Default {
		return Release{}
	}
	return Release{minor: uint8(minor)}
}

// Minor returns the minor version (Default for the zero Release).
func (r Release) Minor() int {
	if r.minor == 0 {
		return Default
	}
	return int(r.minor)
}

// String is "1.<minor>".
func (r Release) String() string { return fmt.Sprintf("1.%d", r.Minor()) }

// IsDefault reports whether r is the default release.
func (r Release) IsDefault() bool { return r.minor == 0 || r.minor == Default }

// Change is one behaviour change of Kubernetes, in effect from its Release.
type Change int

// The changes, newest release first. Each names its upstream source.
const (
	// TooShortTooFew: a schema's minLength failure is `Too short: must be
	// at least N characters` and a minItems or minProperties failure `Too
	// few: <count>: must have at least N items` (field.TooShort,
	// field.TooFew); before, kube-openapi's message as an Invalid value
	// (`Invalid value: "ab": spec.name in body should be at least 3 chars
	// long`, `… should have at least 2 items`, `… should have at least 2
	// properties`). apiextensions-apiserver v0.38 pkg/apiserver/validation/
	// validation.go kubeOpenAPIResultToFieldErrors.
	TooShortTooFew Change = iota
	// UndeclaredWithoutContainer: a CEL compile error for an undeclared
	// reference reads `undeclared reference to 'x'`; before, `undeclared
	// reference to 'x' (in container '')`. cel.dev/cel-go v0.33
	// checker/errors.go undeclaredReferenceWithSymbols (Kubernetes 1.38;
	// 1.37 resolves github.com/google/cel-go v0.29.2). The same function
	// also appends "did you mean" suggestions from the environment's
	// symbol catalog (UndeclaredSuggestions).
	UndeclaredWithoutContainer
	// UndeclaredSuggestions: a CEL compile error for an undeclared
	// reference ends with a suggestion from the environment's symbol
	// catalog when one is near (`undeclared reference to 'math' (did you
	// mean 'path'?)`); before, none. cel.dev/cel-go v0.33 checker/errors.go
	// undeclaredReferenceWithSymbols, common/env/catalog.go Find
	// (Kubernetes 1.38).
	UndeclaredSuggestions
	// DeclarativeValidationBeta: the ObjectMeta validations marked beta
	// (an owner reference's required apiVersion, kind, name and uid; uid,
	// creationTimestamp and the deletion fields immutable) are enforced
	// declaratively in a custom resource's (and an embedded resource's)
	// metadata validation and a CRD update's: their errors replace the handwritten ones and
	// come last, `Required value` without detail and `Invalid value: null:
	// field is immutable`; before, they are alpha (not enforced): the
	// handwritten `Required value: must not be empty` and `Invalid value:
	// "u2": field is immutable`. k8s.io/apimachinery v0.38 pkg/apis/meta/
	// v1/validation/zz_generated.validations.go (MarkBeta), pkg/api/
	// validation/objectmeta.go ValidateObjectMetaDeclaratively; the
	// DeclarativeValidationBeta gate is on by default.
	DeclarativeValidationBeta
	// URLAccessorSize: the URL accessors' estimated result size is their
	// target's (three times it for getEscapedPath), so that a rule such as
	// `matches(url(self).getEscapedPath(), '…')` over a string with a
	// maxLength is priced by that bound; before, the accessors' results are
	// strings of unknown size (such a rule can exceed the budget at 1.37).
	// k8s.io/apiserver v0.38 pkg/cel/library/cost.go EstimateCallCost.
	URLAccessorSize
	// OwnerReferenceRequired: ObjectMeta owner references are validated
	// per index ("metadata.ownerReferences[0].uid") and a missing
	// apiVersion, kind, name or uid is "Required value"; before, the path
	// has no index and each is `Invalid value: "": must not be empty`
	// ("version must not be empty" for an apiVersion without version).
	// k8s.io/apimachinery v0.37 pkg/api/validation/objectmeta.go
	// validateOwnerReference (declarative ObjectMeta validation).
	OwnerReferenceRequired
	// GlobalMatchesCost: the global form `matches(s, re)` is priced as the
	// member form `s.matches(re)` (string size × regex size, statically and
	// at runtime); before, cel-go has no estimate for the global overload
	// and charges it as any O(1) call (1 plus its arguments), so a rule
	// `matches(url(self).getEscapedPath(), '...')` costs a few units where
	// 1.37 estimates it over budget. cel-go v0.29 (Kubernetes 1.37)
	// checker/cost.go functionCost and interpreter/runtimecost.go costCall
	// (overloads.Matches); v0.22 to v0.26 (1.32 to 1.36) price only
	// overloads.MatchesString.
	GlobalMatchesCost
	// ListTypeSetNonScalarWarning: CRD create and update warn about
	// x-kubernetes-list-type: set with object or array items.
	// apiextensions-apiserver v0.37 registry/customresourcedefinition/
	// strategy.go getNonScalarListTypeSetWarnings.
	ListTypeSetNonScalarWarning
	// ListsLibraryV1: the Kubernetes CEL lists library version 1 (adds
	// includes) in the base environment (new expressions from 1.38, stored
	// ones from 1.37). k8s.io/apiserver v0.37 pkg/cel/environment/base.go.
	ListsLibraryV1
	// MetadataNameSizeCap: the CEL type of a resource root's (and an
	// embedded resource's) metadata.name and generateName has maxLength 253
	// and 252 (or the schema's, if shorter) for cost estimation; before,
	// they are unbounded strings (sized by the request limit).
	// apiextensions-apiserver v0.37 pkg/apiserver/schema/cel/model/
	// schemas.go cappedLengthStringType.
	MetadataNameSizeCap
	// NumericFormats: integer formats int32/int64 and number formats
	// float/double are kept and enforced (range checks, "Checked value
	// must be of type integer (default format)"), a format on any other
	// non-string type is unrecognized (warned); before, only string formats
	// are kept (on any type), only nodes of type string are warned about,
	// and kube-openapi's number validator gets no type or format.
	// apiextensions-apiserver v0.36 pkg/apiserver/validation/formats.go,
	// kube-openapi pkg/validation/validate/schema.go (2026-03).
	NumericFormats
	// CELRuleValueOmitted: a failed x-kubernetes-validations rule reports
	// the value itself for a scalar and no value for an object or array
	// (`spec: Invalid value: i must be positive`); before, the value is
	// the node's schema type (`spec: Invalid value: "object": …`).
	// apiextensions-apiserver v0.35 pkg/apiserver/schema/cel/validation.go
	// (field.OmitValueType for objects and arrays).
	CELRuleValueOmitted
	// K8sNameFormats: the string formats k8s-short-name and k8s-long-name
	// are recognized (kept and checked); before, they are unrecognized
	// (stripped, and warned about on CRD create). They were introduced at
	// compatibility version 1.34, which kube-apiserver uses from 1.35 (its
	// DefaultCompatibilityVersion is the release before it).
	// apiextensions-apiserver v0.34 pkg/apiserver/validation/formats.go
	// supportedVersionedFormats.
	K8sNameFormats
	// ContentMessages: label keys and values, qualified names and their
	// DNS-subdomain prefixes are checked by api/validate/content, whose
	// messages count bytes ("must be no more than 63 bytes") and call a key
	// "a valid label key"; before, util/validation's ("63 characters", "a
	// qualified name"). k8s.io/apimachinery v0.35 pkg/api/validate/content.
	ContentMessages
	// TooManySelectableFieldsKept: a CRD update may keep more than 8
	// selectable fields (of the spec or a version) when they are unchanged;
	// before, such an update is refused (`Too many: 9: must have at most 8
	// items`). apiextensions-apiserver v0.35 pkg/apis/apiextensions/
	// validation/validation.go findTooManySelectableFieldsAllowed.
	TooManySelectableFieldsKept
	// CreationTimestampOmitted: a zero metadata.creationTimestamp is left
	// out when ObjectMeta is written back into an object (the decoded
	// request body, the stored object, an embedded resource); before, it
	// is written as null (`creationTimestamp: null`).
	// k8s.io/apimachinery v0.34 pkg/apis/meta/v1/types.go (the field's
	// json tag gained omitzero).
	CreationTimestampOmitted
	// UnrecognizedFormatWarnings: CRD create warns `unrecognized format
	// "<f>"` for each unrecognized format of its schemas, and CRD update
	// for those the old CRD does not have; before, neither warns.
	// apiextensions-apiserver v0.34 registry/customresourcedefinition/
	// strategy.go WarningsOnCreate, WarningsOnUpdate.
	UnrecognizedFormatWarnings
	// FieldValueJSON: a field error's bad value other than a number,
	// boolean or string is rendered as JSON (`["a","b"]`, `null`); before,
	// in Go syntax as fmt's %#v prints upstream's Go value
	// (`[]string{"a", "b"}`, `apiextensions.ValidationRule{Rule:"…", …}`,
	// a nil value as `"null"`), a pointer dereferenced first.
	// k8s.io/apimachinery v0.34 pkg/util/validation/field/errors.go
	// ErrorBody.
	FieldValueJSON
	// SingularUnits: TooLong and TooMany say "1 byte" and "1 item";
	// before, "may not be more than 1 bytes" and "must have at most 1
	// items". k8s.io/apimachinery v0.34 pkg/util/validation/field/errors.go
	// TooLong, TooMany.
	SingularUnits
	// DetailWithoutFieldName: details no longer repeat the field's name:
	// `must not contain line breaks` (a rule's message and fieldPath),
	// `must be a valid path`, `must be non-empty if specified`, `may only
	// be set when …` (selectableFields), a missing version schema and an
	// embedded resource's apiVersion and kind are `Required value` without
	// detail, an owner reference's empty kind, name or uid `must not be
	// empty`; before, `message must not contain line breaks`, `fieldPath
	// must be a valid path`, `selectableFields may only be set when
	// validations.schema is included` (the `version.schema…` one without
	// backquotes), `Required value: schemas are required`, `Required value:
	// must not be empty`, `kind must not be empty`.
	// apiextensions-apiserver v0.34 apis/apiextensions/validation/
	// validation.go, apiserver/schema/objectmeta/validation.go;
	// k8s.io/apimachinery v0.34 pkg/api/validation/objectmeta.go
	// ValidateOwnerReferences.
	DetailWithoutFieldName
	// StatusRatcheting: a status update ratchets (the schema's and the
	// rules' errors on unchanged correlatable values are dropped, the
	// rules' become warnings), as a main-resource update does; before, a
	// status update validates the status and the rules without ratcheting.
	// apiextensions-apiserver v0.33 registry/customresource/
	// status_strategy.go ValidateUpdate (validation.WithRatcheting,
	// cel.WithRatcheting).
	StatusRatcheting
	// StoredVersionMissingMessage: a status.storedVersions entry missing
	// from spec.versions reads `missing from spec.versions; v1 was
	// previously a storage version, and must remain in spec.versions until
	// a storage migration ensures no data remains persisted in v1 and
	// removes v1 from status.storedVersions`; before, `must appear in
	// spec.versions`. apiextensions-apiserver v0.33 apis/apiextensions/
	// validation/validation.go ValidateCustomResourceDefinitionStoredVersions.
	StoredVersionMissingMessage
	// ScientificWithoutSpaces: CEL's string.format renders %e as
	// "2.500000×10⁰⁰"; before, with a narrow no-break space on each side
	// of the "×" (golang.org/x/text before v0.23, internal/number/
	// format.go: Kubernetes 1.32 resolves v0.19.0, 1.33 v0.23.0). It is a
	// property of the binary, not of the CEL compatibility version: the
	// library table (internal/cel/library/env.go) keys it by the
	// StoredExpressions environment's version, which is the release's.
	ScientificWithoutSpaces
	// DynSizePropagation: the static cost estimate sees through dyn(x) (its
	// size is x's: `dyn([1, 2]).sum()` traverses 2 items) and sizes an
	// optional of a scalar as the scalar (`self.?n == optional.of(1)`
	// compares one item); before, both are of unknown size, so a list
	// function over a dyn(...) list or an equality of optionals is
	// estimated at the largest cost, over every budget. cel-go v0.23
	// (Kubernetes 1.33; 1.32 resolves v0.22.0, 1.31 v0.20.1)
	// checker/cost.go maybeUnwrapDynCall, isScalar.
	DynSizePropagation
	// TooLongBytes: a TooLong error reads `may not be more than N bytes`;
	// before, `must have at most N bytes` (field.TooLong: annotations,
	// fieldManager, a managed field's subresource) and `may not be longer
	// than N` for a schema's maxLength (field.TooLongMaxLength, which
	// apiextensions-apiserver's kube-openapi error conversion used).
	// k8s.io/apimachinery v0.32 pkg/util/validation/field/errors.go.
	TooLongBytes
	// FinalizerPathHint: the warning for a finalizer name with a dot and
	// no path prefers `a domain-qualified finalizer name including a path
	// (/)`; before, every unqualified name gets `prefer a domain-qualified
	// finalizer name`. apiextensions-apiserver v0.32 registry/
	// customresource/validator.go.
	FinalizerPathHint
	// MountableSecretsWarning: creating or updating a ServiceAccount
	// that gains the kubernetes.io/enforce-mountable-secrets annotation
	// warns `metadata.annotations[kubernetes.io/enforce-mountable-secrets]:
	// deprecated in v1.32+; ...`; before, no warning. kubernetes v1.32
	// pkg/registry/core/serviceaccount/strategy.go
	// warnIfHasEnforceMountableSecretsAnnotation (internal/builtin).
	MountableSecretsWarning
	// RelaxedEnvVarNames: a container's env names and envFrom prefixes
	// may be any printable ASCII but '=' (RelaxedEnvironmentVariableValidation
	// beta, on by default, in 1.32); before, they must match
	// [-._a-zA-Z][-._a-zA-Z0-9]*. kubernetes v1.32 pkg/features and
	// pkg/apis/core/validation ValidateEnv (internal/builtin).
	RelaxedEnvVarNames
	// KubernetesTypeEqualityCost: `==` on Kubernetes CEL types (quantity,
	// ip, cidr, format, url, semver, the authorizer's) is estimated at cost
	// 1; before, cel-go's default estimate of an equality of values of
	// unknown size applies (a rule comparing cidrs can exceed the budget).
	// k8s.io/apiserver v0.32 pkg/cel/library/cost.go EstimateCallCost.
	KubernetesTypeEqualityCost
	// URLResultSize: url(s) has the size of s for the cost estimate (so
	// `url(self) == url('https://x')` is priced by the strings' sizes);
	// before, its result has no size (unknown, the largest).
	// k8s.io/apiserver v0.32 pkg/cel/library/cost.go EstimateCallCost
	// ("url" returns a ResultSize).
	URLResultSize
	// KeywordFieldNames: a property named as a CEL reserved word (`if`,
	// `namespace`, `as`, … 17 of them; declared escaped, `__if__`) is also
	// selectable by that word (`self.if`) in new expressions; before, only
	// `self.__if__` is, and `self.if` fails to compile (`undefined field
	// 'if'`). k8s.io/apiserver pkg/cel/environment/environment.go
	// (DeclTypeProvider.SetRecognizeKeywordAsFieldName from compatibility
	// version 1.31, which new expressions use from 1.32; stored
	// expressions, compiled at the binary's version, have it at 1.31).
	KeywordFieldNames
	// RBACRequiredDeclarative: the rbac.authorization.k8s.io/v1 fields
	// tagged +k8s:required (a rule's verbs, a roleRef's name, a subject's
	// name) are validated declaratively and enforced: a missing one is
	// `Required value` without detail, after the other errors; before,
	// the handwritten error in place (`rules[0].verbs: Required value:
	// verbs must contain at least one value`). k8s.io/api v0.37 rbac/v1
	// types.go (+k8s:beta(since: "1.37")), kubernetes v1.37
	// pkg/apis/rbac/v1/zz_generated.validations.go (internal/builtin).
	RBACRequiredDeclarative
	// RBACRoleRefImmutableDeclarative: a binding's roleRef immutability
	// is enforced declaratively: `roleRef: Invalid value: null: field is
	// immutable`, after the other errors; before, the handwritten
	// `roleRef: Invalid value: {"APIGroup":...}: field is immutable` in
	// place. k8s.io/api v0.38 rbac/v1 types.go (+k8s:beta(since:"1.38")=
	// +k8s:immutable) (internal/builtin).
	RBACRoleRefImmutableDeclarative
	// StorageClassDeclarative: a StorageClass's provisioner (required)
	// and its immutable fields (provisioner, parameters, reclaimPolicy,
	// volumeBindingMode) are validated declaratively and enforced: the
	// errors come last, `Required value` and `Invalid value: null: field
	// is immutable`; before, the handwritten errors in place (`Invalid
	// value: "Retain": field is immutable`). k8s.io/api v0.37 storage/v1
	// types.go (+k8s:beta(since: "1.37")) (internal/builtin).
	StorageClassDeclarative
	// NetworkPolicyDeclarative: a NetworkPolicy ipBlock's cidr is
	// required declaratively and enforced: `Required value` after the
	// other errors; before, the handwritten error in place. k8s.io/api
	// v0.37 networking/v1 types.go (+k8s:beta(since: "1.37")=
	// +k8s:required on IPBlock.CIDR) (internal/builtin).
	NetworkPolicyDeclarative
	// StrictCIDRValidation: the StrictIPCIDRValidation gate is on by
	// default: a legacy CIDR field (a NetworkPolicy's ipBlock) refuses
	// leading zeros, an IPv4-mapped IPv6 address and host bits
	// (`must not have bits set beyond the prefix length`); before, any
	// value k8s.io/utils/net.ParseCIDRSloppy reads. kubernetes v1.36
	// pkg/features/kube_features.go (internal/builtin).
	StrictCIDRValidation
	// CIDRWarnings: a legacy CIDR field in a non-standard form warns
	// (GetWarningsForCIDR: `CIDR value "10.0.0.1/8" is ambiguous in this
	// context ...`), and on update the old object's CIDRs are accepted as
	// they are (IsValidCIDRForLegacyField); before, IsValidCIDR and no
	// warning. kubernetes v1.33 pkg/apis/networking/validation,
	// pkg/registry/networking/networkpolicy (internal/builtin).
	CIDRWarnings
	numChanges
)

// since is the release each change arrived in.
var since = [numChanges]int{
	TooShortTooFew:                  38,
	UndeclaredWithoutContainer:      38,
	UndeclaredSuggestions:           38,
	DeclarativeValidationBeta:       38,
	URLAccessorSize:                 38,
	RBACRoleRefImmutableDeclarative: 38,
	RBACRequiredDeclarative:         37,
	StorageClassDeclarative:         37,
	NetworkPolicyDeclarative:        37,
	StrictCIDRValidation:            36,
	CIDRWarnings:                    33,
	OwnerReferenceRequired:          37,
	GlobalMatchesCost:               37,
	ListTypeSetNonScalarWarning:     37,
	ListsLibraryV1:                  37,
	MetadataNameSizeCap:             37,
	NumericFormats:                  36,
	CELRuleValueOmitted:             35,
	K8sNameFormats:                  35,
	ContentMessages:                 35,
	TooManySelectableFieldsKept:     35,
	CreationTimestampOmitted:        34,
	UnrecognizedFormatWarnings:      34,
	FieldValueJSON:                  34,
	SingularUnits:                   34,
	DetailWithoutFieldName:          34,
	StatusRatcheting:                33,
	StoredVersionMissingMessage:     33,
	ScientificWithoutSpaces:         33,
	DynSizePropagation:              33,
	TooLongBytes:                    32,
	FinalizerPathHint:               32,
	MountableSecretsWarning:         32,
	KubernetesTypeEqualityCost:      32,
	URLResultSize:                   32,
	KeywordFieldNames:               32,
	RelaxedEnvVarNames:              32,
}

// Since returns the release (minor version) change c arrived in.
func Since(c Change) int { return since[c] }

// Has reports whether release r has change c.
func (r Release) Has(c Change) bool {
	return r.Minor() >= since[c]
}

// supported are the releases whose differential suite is green
// (conformance: `make conformance-versions`), newest first.
var supported = []int{38, 37, 36, 35, 34, 33, 32, 31}

// Supported returns the releases --kube-version accepts, newest first.
func Supported() []Release {
	out := make([]Release, len(supported))
	for i, m := range supported {
		out[i] = Of(m)
	}
	return out
}

// SupportedList is the supported releases for messages: "1.36, 1.37".
func SupportedList() string {
	names := make([]string, len(supported))
	for i := range supported {
		names[i] = Of(supported[len(supported)-1-i]).String()
	}
	return strings.Join(names, ", ")
}

func isSupported(minor int) bool {
	for _, m := range supported {
		if m == minor {
			return true
		}
	}
	return false
}

// Parse reads a release: "1.36" or "v1.36" ("" is Default). An
// unsupported or malformed release is an error naming the supported ones.
func Parse(s string) (Release, error) {
	if s == "" {
		return Release{}, nil
	}
	minor, ok := parseMinor(s)
	if !ok {
		return Release{}, fmt.Errorf("invalid Kubernetes version %q (want 1.<minor>, one of %s)", s, SupportedList())
	}
	if !isSupported(minor) {
		return Release{}, fmt.Errorf("unsupported Kubernetes version %q (supported: %s)", s, SupportedList())
	}
	return Of(minor), nil
}

func parseMinor(s string) (int, bool) {
	s = strings.TrimPrefix(s, "v")
	rest, ok := strings.CutPrefix(s, "1.")
	if !ok || rest == "" {
		return 0, false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	m, err := strconv.Atoi(rest)
	if err != nil || m > 255 {
		return 0, false
	}
	return m, true
}

// ParseSet reads a selection of releases: one release, a range "1.35-1.37",
// a comma-separated list of either, or "supported" (every supported
// release). The result is newest first, without repeats.
func ParseSet(s string) ([]Release, error) {
	if strings.TrimSpace(s) == "supported" {
		return Supported(), nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			r, err := Parse(part)
			if err != nil {
				return nil, err
			}
			seen[r.Minor()] = true
			continue
		}
		a, err := Parse(strings.TrimSpace(lo))
		if err != nil {
			return nil, err
		}
		b, err := Parse(strings.TrimSpace(hi))
		if err != nil {
			return nil, err
		}
		if a.Minor() > b.Minor() {
			return nil, fmt.Errorf("invalid Kubernetes version range %q (the older release comes first)", part)
		}
		for m := a.Minor(); m <= b.Minor(); m++ {
			if !isSupported(m) {
				return nil, fmt.Errorf("Kubernetes version range %q includes unsupported 1.%d (supported: %s)", part, m, SupportedList())
			}
			seen[m] = true
		}
	}
	var out []Release
	for m := Newest; m >= 0; m-- {
		if seen[m] {
			out = append(out, Of(m))
		}
	}
	return out, nil
}
