package upgrade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// The severities of a SchemaChange.
const (
	// SeverityBreaking: a client request or an existing object that was
	// accepted may now be refused, or data may be dropped.
	SeverityBreaking = "breaking"
	// SeverityWarning: accepted requests behave differently (defaults,
	// server-side apply merge, storage, deprecation).
	SeverityWarning = "warning"
	// SeverityInfo: compatible for clients (additions, relaxations).
	SeverityInfo = "info"
)

// Diff classifies the change from oldDef to newDef for API clients: a
// structural diff of the two CRDs by this package's rules, not the API
// server's judgement. Findings come in the old CRD's version order (then
// versions only in the new CRD), each version's schema walked in field
// name order; when the storage version changes, the old storage version's
// schema is last compared with the new one's (FromVersion set): objects
// stored at the first are read at the second.
func Diff(oldDef, newDef *crd.CustomResourceDefinition) []wire.SchemaChange {
	d := &differ{out: []wire.SchemaChange{}}
	if o, n := oldDef.Spec.Conversion, newDef.Spec.Conversion; strategy(o) != strategy(n) {
		d.add("", "", "ConversionStrategyChanged", SeverityWarning, "conversion strategy changed from %s to %s", strategy(o), strategy(n))
	}
	if o, n := storageOf(oldDef), storageOf(newDef); o != n {
		d.add("", "", "StorageVersionChanged", SeverityWarning, "storage version changed from %s to %s: objects are written at %s from now on, and stay at %s until rewritten", o, n, n, o)
	}
	newVersions := map[string]*crd.CustomResourceDefinitionVersion{}
	for i := range newDef.Spec.Versions {
		newVersions[newDef.Spec.Versions[i].Name] = &newDef.Spec.Versions[i]
	}
	seen := map[string]bool{}
	for i := range oldDef.Spec.Versions {
		ov := &oldDef.Spec.Versions[i]
		seen[ov.Name] = true
		nv := newVersions[ov.Name]
		switch {
		case nv == nil:
			d.add(ov.Name, "", "VersionRemoved", SeverityBreaking, "version %s is removed", ov.Name)
			continue
		case ov.Served && !nv.Served:
			d.add(ov.Name, "", "VersionUnserved", SeverityBreaking, "version %s is no longer served", ov.Name)
		case !ov.Served && nv.Served:
			d.add(ov.Name, "", "VersionServed", SeverityInfo, "version %s is served", ov.Name)
		}
		if !ov.Deprecated && nv.Deprecated {
			d.add(ov.Name, "", "VersionDeprecated", SeverityWarning, "version %s is deprecated: requests to it get a deprecation warning", ov.Name)
		} else if ov.Deprecated && nv.Deprecated && str(ov.DeprecationWarning) != str(nv.DeprecationWarning) {
			d.add(ov.Name, "", "DeprecationWarningChanged", SeverityInfo, "the deprecation warning of version %s changed", ov.Name)
		}
		d.version = ov.Name
		d.walk("", schemaOf(ov), schemaOf(nv))
	}
	for i := range newDef.Spec.Versions {
		nv := &newDef.Spec.Versions[i]
		if !seen[nv.Name] {
			d.add(nv.Name, "", "VersionAdded", SeverityInfo, "version %s is added (served: %t, storage: %t)", nv.Name, nv.Served, nv.Storage)
		}
	}
	// Objects stored at the old storage version are read at the new one:
	// compare those two schemas too.
	if o, n := storageOf(oldDef), storageOf(newDef); o != "" && n != "" && o != n {
		d.version, d.from = n, o
		d.walk("", schemaOf(versionOf(oldDef, o)), schemaOf(versionOf(newDef, n)))
	}
	return d.out
}

func versionOf(c *crd.CustomResourceDefinition, name string) *crd.CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return &crd.CustomResourceDefinitionVersion{}
}

type differ struct {
	version string
	from    string // the old version compared with version, when not the same
	out     []wire.SchemaChange
}

func (d *differ) add(version, path, kind, severity, format string, args ...interface{}) {
	d.out = append(d.out, wire.SchemaChange{Version: version, Path: path, Kind: kind, Severity: severity, Message: fmt.Sprintf(format, args...)})
}

func (d *differ) at(path, kind, severity, format string, args ...interface{}) {
	d.add(d.version, path, kind, severity, format, args...)
	if d.from != "" {
		d.out[len(d.out)-1].FromVersion = d.from
	}
}

func strategy(c *crd.CustomResourceConversion) string {
	if c == nil || c.Strategy == "" {
		return string(crd.NoneConverter)
	}
	return string(c.Strategy)
}

func storageOf(c *crd.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func schemaOf(v *crd.CustomResourceDefinitionVersion) *crd.JSONSchemaProps {
	if v.Schema == nil {
		return nil
	}
	return v.Schema.OpenAPIV3Schema
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func where(path string) string {
	if path == "" {
		return "the root"
	}
	return path
}

func preserves(s *crd.JSONSchemaProps) bool {
	return s != nil && s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

// walk compares two schema nodes at path.
func (d *differ) walk(path string, o, n *crd.JSONSchemaProps) {
	if o == nil || n == nil {
		if o != nil && n == nil && path == "" {
			d.at(path, "SchemaRemoved", SeverityWarning, "the schema of version %s is removed", d.version)
		}
		return
	}
	p := where(path)
	if o.Type != n.Type {
		d.at(path, "TypeChanged", SeverityBreaking, "type of %s changed from %q to %q", p, o.Type, n.Type)
	}
	if o.XIntOrString != n.XIntOrString {
		sev := SeverityBreaking
		if n.XIntOrString {
			sev = SeverityInfo
		}
		d.at(path, "IntOrStringChanged", sev, "x-kubernetes-int-or-string of %s changed to %t", p, n.XIntOrString)
	}
	if o.Format != n.Format {
		// Formats are checked on strings only (kube-openapi's validator).
		sev := SeverityBreaking
		if n.Format == "" || n.Type != "string" {
			sev = SeverityInfo
		}
		d.at(path, "FormatChanged", sev, "format of %s changed from %q to %q", p, o.Format, n.Format)
	}
	if o.Pattern != n.Pattern {
		sev := SeverityBreaking
		if n.Pattern == "" {
			sev = SeverityInfo
		}
		d.at(path, "PatternChanged", sev, "pattern of %s changed from %q to %q", p, o.Pattern, n.Pattern)
	}
	if o.Nullable && !n.Nullable {
		d.at(path, "NullableRemoved", SeverityBreaking, "%s is no longer nullable: null values are dropped", p)
	}
	d.upper(path, "maximum", o.Maximum, n.Maximum)
	d.lower(path, "minimum", o.Minimum, n.Minimum)
	if !o.ExclusiveMaximum && n.ExclusiveMaximum {
		d.at(path, "BoundTightened", SeverityBreaking, "maximum of %s became exclusive", p)
	}
	if !o.ExclusiveMinimum && n.ExclusiveMinimum {
		d.at(path, "BoundTightened", SeverityBreaking, "minimum of %s became exclusive", p)
	}
	d.upper(path, "maxLength", f64(o.MaxLength), f64(n.MaxLength))
	d.lower(path, "minLength", f64(o.MinLength), f64(n.MinLength))
	d.upper(path, "maxItems", f64(o.MaxItems), f64(n.MaxItems))
	d.lower(path, "minItems", f64(o.MinItems), f64(n.MinItems))
	d.upper(path, "maxProperties", f64(o.MaxProperties), f64(n.MaxProperties))
	d.lower(path, "minProperties", f64(o.MinProperties), f64(n.MinProperties))
	if (o.MultipleOf == nil) != (n.MultipleOf == nil) || (o.MultipleOf != nil && *o.MultipleOf != *n.MultipleOf) {
		sev := SeverityBreaking
		if n.MultipleOf == nil {
			sev = SeverityInfo
		}
		d.at(path, "MultipleOfChanged", sev, "multipleOf of %s changed", p)
	}
	if !o.UniqueItems && n.UniqueItems {
		d.at(path, "BoundTightened", SeverityBreaking, "items of %s must be unique", p)
	}
	d.enum(path, o.Enum, n.Enum)
	d.defaults(path, o.Default, n.Default)
	if str(o.XListType) != str(n.XListType) {
		d.at(path, "ListTypeChanged", SeverityWarning, "x-kubernetes-list-type of %s changed from %q to %q: server-side apply merges it differently", p, str(o.XListType), str(n.XListType))
	}
	if strings.Join(o.XListMapKeys, ",") != strings.Join(n.XListMapKeys, ",") {
		d.at(path, "ListMapKeysChanged", SeverityWarning, "x-kubernetes-list-map-keys of %s changed from %v to %v: server-side apply merges it differently", p, o.XListMapKeys, n.XListMapKeys)
	}
	if str(o.XMapType) != str(n.XMapType) {
		d.at(path, "MapTypeChanged", SeverityWarning, "x-kubernetes-map-type of %s changed from %q to %q: server-side apply merges it differently", p, str(o.XMapType), str(n.XMapType))
	}
	if preserves(o) && !preserves(n) {
		d.at(path, "PreserveUnknownFieldsRemoved", SeverityBreaking, "%s no longer preserves unknown fields: they are pruned", p)
	}
	if o.XEmbeddedResource != n.XEmbeddedResource {
		d.at(path, "EmbeddedResourceChanged", SeverityBreaking, "x-kubernetes-embedded-resource of %s changed to %t", p, n.XEmbeddedResource)
	}
	d.rules(path, o.XValidations, n.XValidations)
	d.required(path, o, n)
	d.properties(path, o, n)
	d.walk(path+"[*]", itemsOf(o), itemsOf(n))
	d.walk(path+"[*]", additionalOf(o), additionalOf(n))
	if additionalOf(o) != nil && additionalOf(n) == nil && len(n.Properties) > 0 {
		d.at(path, "MapBecameObject", SeverityBreaking, "%s is no longer a map (additionalProperties removed)", p)
	}
}

func f64(x *int64) *float64 {
	if x == nil {
		return nil
	}
	v := float64(*x)
	return &v
}

// upper reports a maximum-like bound added or lowered (tightened) or
// removed or raised (loosened).
func (d *differ) upper(path, name string, o, n *float64) {
	switch {
	case o == nil && n != nil:
		d.at(path, "BoundTightened", SeverityBreaking, "%s of %s added: %v", name, where(path), *n)
	case o != nil && n == nil:
		d.at(path, "BoundLoosened", SeverityInfo, "%s of %s removed (was %v)", name, where(path), *o)
	case o != nil && *n < *o:
		d.at(path, "BoundTightened", SeverityBreaking, "%s of %s lowered from %v to %v", name, where(path), *o, *n)
	case o != nil && *n > *o:
		d.at(path, "BoundLoosened", SeverityInfo, "%s of %s raised from %v to %v", name, where(path), *o, *n)
	}
}

// lower is upper for minimum-like bounds.
func (d *differ) lower(path, name string, o, n *float64) {
	switch {
	case o == nil && n != nil:
		d.at(path, "BoundTightened", SeverityBreaking, "%s of %s added: %v", name, where(path), *n)
	case o != nil && n == nil:
		d.at(path, "BoundLoosened", SeverityInfo, "%s of %s removed (was %v)", name, where(path), *o)
	case o != nil && *n > *o:
		d.at(path, "BoundTightened", SeverityBreaking, "%s of %s raised from %v to %v", name, where(path), *o, *n)
	case o != nil && *n < *o:
		d.at(path, "BoundLoosened", SeverityInfo, "%s of %s lowered from %v to %v", name, where(path), *o, *n)
	}
}

// canonical renders a JSON value canonically (map keys sorted).
func canonical(j *crd.JSON) string {
	if j == nil {
		return ""
	}
	var v interface{}
	if err := json.Unmarshal(j.Raw, &v); err != nil {
		return string(bytes.TrimSpace(j.Raw))
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (d *differ) enum(path string, o, n []crd.JSON) {
	if len(o) == 0 && len(n) == 0 {
		return
	}
	oldSet, newSet := map[string]bool{}, map[string]bool{}
	for i := range o {
		oldSet[canonical(&o[i])] = true
	}
	for i := range n {
		newSet[canonical(&n[i])] = true
	}
	if len(o) == 0 {
		d.at(path, "EnumAdded", SeverityBreaking, "%s is restricted to an enum of %d values", where(path), len(n))
		return
	}
	if len(n) == 0 {
		d.at(path, "EnumRemoved", SeverityInfo, "the enum of %s is removed", where(path))
		return
	}
	var removed, added []string
	for k := range oldSet {
		if !newSet[k] {
			removed = append(removed, k)
		}
	}
	for k := range newSet {
		if !oldSet[k] {
			added = append(added, k)
		}
	}
	sort.Strings(removed)
	sort.Strings(added)
	if len(removed) > 0 {
		d.at(path, "EnumValuesRemoved", SeverityBreaking, "enum values of %s removed: %s", where(path), strings.Join(removed, ", "))
	}
	if len(added) > 0 {
		d.at(path, "EnumValuesAdded", SeverityInfo, "enum values of %s added: %s", where(path), strings.Join(added, ", "))
	}
}

func (d *differ) defaults(path string, o, n *crd.JSON) {
	oc, nc := canonical(o), canonical(n)
	switch {
	case oc == nc:
	case oc == "":
		d.at(path, "DefaultAdded", SeverityWarning, "%s defaults to %s: objects without it get it when read or written", where(path), nc)
	case nc == "":
		d.at(path, "DefaultRemoved", SeverityWarning, "the default of %s (%s) is removed", where(path), oc)
	default:
		d.at(path, "DefaultChanged", SeverityWarning, "the default of %s changed from %s to %s", where(path), oc, nc)
	}
}

// rules compares x-kubernetes-validations by rule text.
func (d *differ) rules(path string, o, n crd.ValidationRules) {
	had := map[string]bool{}
	for _, r := range o {
		had[r.Rule] = true
	}
	have := map[string]bool{}
	for _, r := range n {
		have[r.Rule] = true
		if had[r.Rule] {
			continue
		}
		kind, what := "RuleAdded", "validation rule"
		if strings.Contains(r.Rule, "oldSelf") {
			kind, what = "TransitionRuleAdded", "transition rule"
		}
		d.at(path, kind, SeverityBreaking, "new %s on %s: %s", what, where(path), r.Rule)
	}
	for _, r := range o {
		if !have[r.Rule] {
			d.at(path, "RuleRemoved", SeverityInfo, "validation rule removed from %s: %s", where(path), r.Rule)
		}
	}
}

func (d *differ) required(path string, o, n *crd.JSONSchemaProps) {
	had := map[string]bool{}
	for _, r := range o.Required {
		had[r] = true
	}
	for _, r := range n.Required {
		if !had[r] {
			d.at(child(path, r), "FieldRequired", SeverityBreaking, "%s is now required", child(path, r))
		}
	}
	have := map[string]bool{}
	for _, r := range n.Required {
		have[r] = true
	}
	for _, r := range o.Required {
		if !have[r] {
			d.at(child(path, r), "FieldOptional", SeverityInfo, "%s is no longer required", child(path, r))
		}
	}
}

func (d *differ) properties(path string, o, n *crd.JSONSchemaProps) {
	names := make([]string, 0, len(o.Properties)+len(n.Properties))
	for k := range o.Properties {
		names = append(names, k)
	}
	for k := range n.Properties {
		if _, ok := o.Properties[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		op, inOld := o.Properties[k]
		np, inNew := n.Properties[k]
		cp := child(path, k)
		switch {
		case inOld && !inNew:
			if preserves(n) {
				d.at(cp, "FieldRemoved", SeverityWarning, "%s is removed from the schema; %s preserves unknown fields, so its data is kept unvalidated", cp, where(path))
			} else {
				d.at(cp, "FieldRemoved", SeverityBreaking, "%s is removed: its data is pruned", cp)
			}
		case !inOld && inNew:
			d.at(cp, "FieldAdded", SeverityInfo, "%s is added", cp)
		default:
			d.walk(cp, &op, &np)
		}
	}
}

func itemsOf(s *crd.JSONSchemaProps) *crd.JSONSchemaProps {
	if s.Items == nil {
		return nil
	}
	return s.Items.Schema
}

func additionalOf(s *crd.JSONSchemaProps) *crd.JSONSchemaProps {
	if s.AdditionalProperties == nil {
		return nil
	}
	return s.AdditionalProperties.Schema
}
