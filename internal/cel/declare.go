package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// This file exports the DeclType constructors and the type provider for
// environments built outside this package: the admission-policy environment
// (internal/admission) declares upstream's kubernetes.AdmissionRequest,
// kubernetes.Namespace and kubernetes.variables object types with them, as
// k8s.io/apiserver/pkg/admission/plugin/cel (BuildRequestType,
// BuildNamespaceType, NewCompositedCompiler) does with apiserver/pkg/cel's
// NewObjectType, NewListType, NewMapType and NewDeclField.

// Scalar and dynamic DeclTypes (upstream's StringType, BoolType, IntType,
// TimestampType, DynType, ...).
var (
	StringDeclType    = stringDeclType
	BoolDeclType      = boolDeclType
	IntDeclType       = intDeclType
	DoubleDeclType    = doubleDeclType
	UintDeclType      = uintDeclType
	BytesDeclType     = bytesDeclType
	DurationDeclType  = durationDeclType
	TimestampDeclType = timestampDeclType
	NullDeclType      = nullDeclType
	AnyDeclType       = anyDeclType
	DynDeclType       = newSimpleType("dyn", cel.DynType, 1)
)

// NewObjectDeclType is upstream's NewObjectType: a named object type whose
// Fields map may grow after the type is registered with a provider (upstream's
// composition state adds each compiled variable to kubernetes.variables).
func NewObjectDeclType(name string, fields map[string]*DeclField) *DeclType {
	if fields == nil {
		fields = map[string]*DeclField{}
	}
	return newObjectType(name, fields)
}

// NewListDeclType is upstream's NewListType(elem, -1).
func NewListDeclType(elem *DeclType) *DeclType { return newListType(elem, noMaxLength) }

// NewMapDeclType is upstream's NewMapType(key, elem, -1).
func NewMapDeclType(key, elem *DeclType) *DeclType { return newMapType(key, elem, noMaxLength) }

// TypeProviderOptions returns the options that make the object types of roots
// (and the object types below them) known to the type checker of an
// environment extended from base, as upstream's DeclTypeProvider does.
func TypeProviderOptions(base *cel.Env, roots ...*DeclType) []cel.EnvOption {
	var prov types.Provider = base.CELTypeProvider()
	p := newDeclTypeProvider(prov, roots...)
	return []cel.EnvOption{cel.CustomTypeProvider(p), cel.CustomTypeAdapter(p)}
}
