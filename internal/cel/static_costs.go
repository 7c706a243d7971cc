package cel

import "sort"

// StaticRuleCost is the static cost estimate of one compiled rule, for cost
// reports.
type StaticRuleCost struct {
	// Path locates the schema node: property names joined by '.', "[*]" for
	// list items and map values; allOf rules carry "allOf[i]" suffixes.
	Path string
	// Rule is the index of the rule in the node's x-kubernetes-validations.
	Rule int
	// Expression is the rule's CEL expression.
	Expression string
	// MinCost and MaxCost bound one evaluation; MaxCardinality is upstream's
	// estimate of how often the rule can run per request.
	MinCost, MaxCost, MaxCardinality uint64
	// MessageExpressionMaxCost is the static cost of the messageExpression.
	MessageExpressionMaxCost uint64
	// Error is the compile error, "" when the rule compiled.
	Error string
}

// StaticCosts lists the compiled rules of v and its children (properties
// sorted by name, then items, additionalProperties and allOf entries).
func (v *Validator) StaticCosts() []StaticRuleCost {
	var out []StaticRuleCost
	v.staticCosts("", &out)
	return out
}

func (v *Validator) staticCosts(path string, out *[]StaticRuleCost) {
	if v == nil {
		return
	}
	for i, c := range v.compiledRules {
		rc := StaticRuleCost{Path: path, Rule: i, Expression: v.uncompiledRules[i].Rule,
			MinCost: c.MinCost, MaxCost: c.MaxCost, MaxCardinality: c.MaxCardinality, MessageExpressionMaxCost: c.MessageExpressionMaxCost}
		if c.Error != nil {
			rc.Error = c.Error.Detail
		}
		*out = append(*out, rc)
	}
	keys := make([]string, 0, len(v.Properties))
	for k := range v.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := v.Properties[k]
		child := k
		if path != "" {
			child = path + "." + k
		}
		p.staticCosts(child, out)
	}
	v.Items.staticCosts(path+"[*]", out)
	v.AdditionalProperties.staticCosts(path+"[*]", out)
	for i, a := range v.AllOfValidators {
		a.staticCosts(path+".allOf["+itoaInt(i)+"]", out)
	}
}

func itoaInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}
