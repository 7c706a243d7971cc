package objectmeta

import (
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

func boolPtr(b bool) *bool    { return &b }
func int64Ptr(i int64) *int64 { return &i }
func timePtr(s string) *Time  { t := mustTime(s); return &t }
func mustTime(s string) Time {
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return Time{pt}
}

const (
	dns1123SubdomainMsg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	labelNameMsg        = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	labelValueMsg       = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
)

func TestValidateCustomResourceCreate(t *testing.T) {
	tests := []struct {
		name       string
		meta       ObjectMeta
		namespaced bool
		want       []string
	}{
		{name: "valid namespaced", meta: ObjectMeta{Name: "a", Namespace: "ns"}, namespaced: true},
		{name: "valid cluster-scoped with everything", meta: ObjectMeta{Name: "a.b", GenerateName: "a-", Labels: map[string]string{"example.com/k": "v"}, Annotations: map[string]string{"Example.com/Key": "any value"},
			OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "u", Controller: boolPtr(true)}}, Finalizers: []string{"example.com/f"},
			ManagedFields: []ManagedFieldsEntry{{Manager: "kubectl", Operation: "Apply", FieldsType: "FieldsV1"}}}},
		{name: "name required", meta: ObjectMeta{}, want: []string{"metadata.name: Required value: name or generateName is required"}},
		{name: "names must be DNS subdomains; generateName may end with a dash", meta: ObjectMeta{Name: "A", GenerateName: "Bc-"},
			want: []string{`metadata.generateName: Invalid value: "Bc-": ` + dns1123SubdomainMsg, `metadata.name: Invalid value: "A": ` + dns1123SubdomainMsg}},
		{name: "generateName masking drops the last two characters, as upstream", meta: ObjectMeta{Name: "a", GenerateName: "B-"}},
		{name: "too long name", meta: ObjectMeta{Name: strings.Repeat("a", 254)},
			want: []string{`metadata.name: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`}},
		{name: "namespace required when namespaced", meta: ObjectMeta{Name: "a"}, namespaced: true, want: []string{"metadata.namespace: Required value"}},
		{name: "namespace must be a label", meta: ObjectMeta{Name: "a", Namespace: "a.b"}, namespaced: true, want: []string{`metadata.namespace: Invalid value: "a.b": must not contain dots`}},
		{name: "namespace forbidden when cluster-scoped", meta: ObjectMeta{Name: "a", Namespace: "ns"}, want: []string{"metadata.namespace: Forbidden: not allowed on this type"}},
		{name: "negative generation", meta: ObjectMeta{Name: "a", Generation: -1}, want: []string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"}},
		{name: "labels in sorted key order", meta: ObjectMeta{Name: "a", Labels: map[string]string{"z_": "ok", "a/b/c": "v", "/x": "-bad"}},
			want: []string{
				`metadata.labels: Invalid value: "/x": prefix part must be non-empty`,
				`metadata.labels: Invalid value: "-bad": ` + labelValueMsg,
				`metadata.labels: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
				`metadata.labels: Invalid value: "z_": ` + labelNameMsg,
			}},
		{name: "label value too long", meta: ObjectMeta{Name: "a", Labels: map[string]string{"k": strings.Repeat("v", 64)}},
			want: []string{`metadata.labels: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`}},
		{name: "label key with a bad prefix", meta: ObjectMeta{Name: "a", Labels: map[string]string{"Example.com/" + strings.Repeat("k", 64): ""}},
			want: []string{
				`metadata.labels: Invalid value: "Example.com/` + strings.Repeat("k", 64) + `": prefix part ` + dns1123SubdomainMsg,
				`metadata.labels: Invalid value: "Example.com/` + strings.Repeat("k", 64) + `": name part must be no more than 63 bytes`,
			}},
		{name: "annotation keys ignore case, the size is limited", meta: ObjectMeta{Name: "a", Annotations: map[string]string{"Bad Key": "", "k": strings.Repeat("v", 256*1024)}},
			want: []string{
				`metadata.annotations: Invalid value: "Bad Key": ` + labelNameMsg,
				"metadata.annotations: Too long: may not be more than 262144 bytes",
			}},
		{name: "owner references", meta: ObjectMeta{Name: "a", OwnerReferences: []OwnerReference{
			{},
			{APIVersion: "a/b/c", Kind: "K", Name: "n", UID: "u", Controller: boolPtr(true)},
			{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u2", Controller: boolPtr(true)},
			{APIVersion: "g/", Kind: "K", Name: "m", UID: "u3", Controller: boolPtr(false)},
		}},
			want: []string{
				"metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
				"metadata.ownerReferences[0].kind: Required value: must not be empty",
				"metadata.ownerReferences[0].name: Required value: must not be empty",
				"metadata.ownerReferences[0].uid: Required value: must not be empty",
				`metadata.ownerReferences[1].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
				`metadata.ownerReferences[2]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u2","controller":true}: /v1, Kind=Event is disallowed from being an owner`,
				`metadata.ownerReferences: Invalid value: [{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"a/b/c","kind":"K","name":"n","uid":"u","controller":true},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u2","controller":true},{"apiVersion":"g/","kind":"K","name":"m","uid":"u3","controller":false}]: Only one reference can have Controller set to true. Found "true" in references for K/n and Event/e`,
				`metadata.ownerReferences[3].apiVersion: Invalid value: "g/": must be <group>/<version> or <version>`,
			}},
		{name: "finalizers", meta: ObjectMeta{Name: "a", Finalizers: []string{"orphan", "foregroundDeletion", "bad name"}},
			want: []string{
				`metadata.finalizers: Invalid value: "bad name": ` + labelNameMsg,
				`metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","bad name"]: finalizer orphan and foregroundDeletion cannot be both set`,
			}},
		{name: "managed fields", meta: ObjectMeta{Name: "a", ManagedFields: []ManagedFieldsEntry{
			{},
			{Operation: "Patch", FieldsType: "FieldsV2", Manager: "bad\x07", Subresource: strings.Repeat("s", 257)},
			{Operation: "Update", Manager: strings.Repeat("m", 129)},
		}},
			want: []string{
				"metadata.managedFields[0].operation: Required value: must not be empty",
				`metadata.managedFields[1].operation: Unsupported value: "Patch": supported values: "Apply", "Update"`,
				"metadata.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
				`metadata.managedFields[1].manager: Invalid value: "bad\a": invalid character U+0007 (at position 3)`,
				"metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
				"metadata.managedFields[2].manager: Too long: may not be more than 128 bytes",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.meta
			diff(t, render(ValidateCustomResourceCreate(&m, tt.namespaced)), tt.want)
		})
	}
}

func TestValidateRegistryCreateUsesPathSegmentNames(t *testing.T) {
	m := &ObjectMeta{Name: "A%b", GenerateName: "x/", Namespace: "ns"}
	diff(t, render(ValidateRegistryCreate(m, true)), []string{
		`metadata.generateName: Invalid value: "x/": may not contain '/'`,
		`metadata.name: Invalid value: "A%b": may not contain '%'`,
	})
	diff(t, render(ValidateRegistryCreate(&ObjectMeta{Name: "."}, false)), []string{`metadata.name: Invalid value: ".": may not be '.'`})
}

func TestValidateObjectMetaUpdate(t *testing.T) {
	old := ObjectMeta{Name: "a", Namespace: "ns", UID: "u1", ResourceVersion: "1", Generation: 2,
		CreationTimestamp: mustTime("2024-01-01T00:00:00Z"), Finalizers: []string{"example.com/a"}}
	tests := []struct {
		name   string
		mutate func(m, old *ObjectMeta)
		want   []string
	}{
		{name: "unchanged", mutate: func(m, old *ObjectMeta) {}},
		{name: "same instant in another zone is unchanged", mutate: func(m, old *ObjectMeta) {
			m.CreationTimestamp = mustTime("2024-01-01T02:00:00+02:00")
		}},
		{name: "resourceVersion required", mutate: func(m, old *ObjectMeta) { m.ResourceVersion = "" },
			want: []string{`metadata.resourceVersion: Invalid value: "": must be specified for an update`}},
		{name: "generation decremented", mutate: func(m, old *ObjectMeta) { m.Generation = 1 },
			want: []string{"metadata.generation: Invalid value: 1: must not be decremented"}},
		{name: "immutable fields", mutate: func(m, old *ObjectMeta) {
			m.Name, m.Namespace, m.UID = "b", "other", "u2"
			m.CreationTimestamp = mustTime("2024-01-02T00:00:00Z")
			m.DeletionTimestamp = timePtr("2024-01-03T00:00:00Z")
			m.DeletionGracePeriodSeconds = int64Ptr(30)
		}, want: []string{
			`metadata.name: Invalid value: "b": field is immutable`,
			`metadata.namespace: Invalid value: "other": field is immutable`,
			`metadata.uid: Invalid value: "u2": field is immutable`,
			`metadata.creationTimestamp: Invalid value: "2024-01-02T00:00:00Z": field is immutable`,
			`metadata.deletionTimestamp: Invalid value: "2024-01-03T00:00:00Z": field is immutable`,
			"metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
		}},
		{name: "removed deletion fields render as null", mutate: func(m, old *ObjectMeta) {
			old.DeletionTimestamp = timePtr("2024-01-03T00:00:00Z")
			old.DeletionGracePeriodSeconds = int64Ptr(0)
			m.Finalizers = nil
		}, want: []string{
			"metadata.deletionTimestamp: Invalid value: null: field is immutable",
			"metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable",
		}},
		{name: "no new finalizers while deleting", mutate: func(m, old *ObjectMeta) {
			old.DeletionTimestamp = timePtr("2024-01-03T00:00:00Z")
			m.DeletionTimestamp = timePtr("2024-01-03T00:00:00Z")
			m.Finalizers = []string{"z", "example.com/a", "b", "z"}
		}, want: []string{`metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "z"}`}},
		{name: "labels still validated", mutate: func(m, old *ObjectMeta) { m.Labels = map[string]string{"k": "-"} },
			want: []string{`metadata.labels: Invalid value: "-": ` + labelValueMsg}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := old
			m := old
			tt.mutate(&m, &o)
			diff(t, render(ValidateCustomResourceUpdate(&m, &o)), tt.want)
		})
	}
}

func TestValidateRegistryUpdateComesWithCreateChecks(t *testing.T) {
	old := &ObjectMeta{Name: "a%", ResourceVersion: "1"}
	m := &ObjectMeta{Name: "a%", ResourceVersion: "1", Namespace: "ns"}
	diff(t, render(ValidateRegistryUpdate(m, old, false)), []string{
		`metadata.name: Invalid value: "a%": may not contain '%'`,
		"metadata.namespace: Forbidden: not allowed on this type",
		`metadata.namespace: Invalid value: "ns": field is immutable`,
	})
}

func TestFinalizerWarnings(t *testing.T) {
	tests := []struct {
		name       string
		meta, old  *ObjectMeta
		wantCreate []string
	}{
		{name: "standard and qualified finalizers", meta: &ObjectMeta{Finalizers: []string{"orphan", "foregroundDeletion", "kubernetes", "example.com/x"}}},
		{name: "unqualified finalizers, sorted", meta: &ObjectMeta{Finalizers: []string{"zeta", "example.com", "bad name"}},
			wantCreate: []string{
				`metadata.finalizers: "bad name": ` + labelNameMsg,
				`metadata.finalizers: "bad name": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
				`metadata.finalizers: "example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`,
				`metadata.finalizers: "zeta": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
			}},
		{name: "only added finalizers warn on update", meta: &ObjectMeta{Finalizers: []string{"old", "new"}}, old: &ObjectMeta{Finalizers: []string{"old"}},
			wantCreate: []string{`metadata.finalizers: "new": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			if tt.old != nil {
				got = WarningsOnUpdate(kubeversion.Release{}, tt.meta, tt.old)
			} else {
				got = WarningsOnCreate(kubeversion.Release{}, tt.meta)
			}
			diff(t, got, tt.wantCreate)
		})
	}
}

func TestFromCustomResource(t *testing.T) {
	m, errs := FromCustomResource(map[string]interface{}{})
	if m == nil || errs != nil {
		t.Errorf("absent metadata: %v %v", m, errs)
	}
	_, errs = FromCustomResource(map[string]interface{}{"metadata": "x"})
	diff(t, render(errs), []string{`metadata: Invalid value: "x": expected map[string]interface{}, got string`})
	m, errs = FromCustomResource(map[string]interface{}{"metadata": map[string]interface{}{"name": "n", "generation": int64(3)}})
	if errs != nil || m.Name != "n" || m.Generation != 3 {
		t.Errorf("got %+v %v", m, errs)
	}
	_ = field.NewPath
}
