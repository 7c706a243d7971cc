package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/upgrade"
)

// applyBehaviour is upgrade's "apply behaviour" section: the merge-type
// changes and, for the stored objects, what happens to their managedFields
// and to each manager's next apply (apply.UpgradeBehaviour).
func applyBehaviour(oldDef, newDef *crd.CustomResourceDefinition, objects []upgrade.Object, storedVersions []string) (*apply.UpgradeReport, error) {
	oldCRD := engine.CompileCRD(oldDef)
	newCRD := engine.CompileCRDUpdate(newDef, oldDef, engine.UpdateOptions{StoredVersions: storedVersions})
	if !oldCRD.Valid() || !newCRD.Valid() {
		// an invalid old CRD is reported by the update's verdict
		return nil, nil
	}
	objs := make([]apply.UpgradeObject, len(objects))
	for i, o := range objects {
		objs[i] = apply.UpgradeObject{Source: o.Source, Data: o.Data}
	}
	return apply.UpgradeBehaviour(oldCRD, newCRD, objs)
}

// applyBehaviourShown reports whether the section says anything: a merge
// type changes, or a stored object's ownership or next apply does.
func applyBehaviourShown(ab *apply.UpgradeReport) bool {
	if ab == nil {
		return false
	}
	if len(ab.MergeTypeChanges) > 0 {
		return true
	}
	for _, o := range ab.Objects {
		if objectChanges(o) {
			return true
		}
	}
	return false
}

func objectChanges(o apply.ObjectApplyBehaviour) bool {
	if o.Error != "" || len(o.Orphaned) > 0 {
		return true
	}
	for _, m := range o.Managers {
		if managerChanges(m) {
			return true
		}
	}
	return false
}

func managerChanges(m apply.ManagerApplyBehaviour) bool {
	if len(m.NoLongerOwned) > 0 || len(m.NewlyOwned) > 0 || m.ReconciledFieldsV1 != nil {
		return true
	}
	n := m.NextApply
	return n != nil && (len(n.Wiped) > 0 || len(n.NoLongerWiped) > 0 || len(n.Changed) > 0 ||
		len(n.NewConflicts) > 0 || len(n.GoneConflicts) > 0 || outcome(n.Old) != outcome(n.New) ||
		strings.Join(n.Old.Owned, ",") != strings.Join(n.New.Owned, ","))
}

func outcome(o apply.ApplyOutcome) string {
	switch {
	case o.Code == 0:
		return "ok"
	case o.Conflict != "":
		return "conflict (409): " + o.Conflict
	default:
		return fmt.Sprintf("refused (%d): %s", o.Code, o.Error)
	}
}

// writeApplyBehaviour renders the section; nothing when it has nothing to
// say.
func writeApplyBehaviour(w io.Writer, ab *apply.UpgradeReport) {
	if !applyBehaviourShown(ab) {
		return
	}
	fmt.Fprintln(w, "\nApply behaviour (server-side apply, computed by the field manager under both CRDs):")
	if len(ab.MergeTypeChanges) == 0 {
		fmt.Fprintln(w, "  no list or map changes its merge type")
	}
	for _, c := range ab.MergeTypeChanges {
		fmt.Fprintf(w, "  %s %s: %s -> %s\n", c.Version, c.Path, c.Old, c.New)
		fmt.Fprint(w, wrap(c.Meaning, "    ", 80))
	}
	for _, o := range ab.Objects {
		if o.Skipped != "" || !objectChanges(o) {
			continue
		}
		fmt.Fprintf(w, "  %s %s:\n", o.Source, o.Name)
		if o.Error != "" {
			fmt.Fprintf(w, "    not compared: %s\n", o.Error)
			continue
		}
		if len(o.Orphaned) > 0 {
			fmt.Fprintf(w, "    orphaned (owned before, by no manager now): %s\n", strings.Join(o.Orphaned, ", "))
		}
		for _, m := range o.Managers {
			if !managerChanges(m) {
				continue
			}
			who := m.Operation
			if m.Subresource != "" {
				who += ", " + m.Subresource
			}
			fmt.Fprintf(w, "    %q (%s, %s):\n", m.Manager, who, m.APIVersion)
			if m.ReconciledFieldsV1 != nil {
				fmt.Fprintf(w, "      managedFields rewritten at the next write: %s\n", m.ReconciledFieldsV1)
			}
			if len(m.NoLongerOwned) > 0 {
				fmt.Fprintf(w, "      no longer owns: %s\n", strings.Join(m.NoLongerOwned, ", "))
			}
			if len(m.NewlyOwned) > 0 {
				fmt.Fprintf(w, "      now owns: %s\n", strings.Join(m.NewlyOwned, ", "))
			}
			n := m.NextApply
			if n == nil {
				continue
			}
			fmt.Fprintf(w, "      next apply (its owned fields re-applied): old CRD: %s; new CRD: %s\n", outcome(n.Old), outcome(n.New))
			fmt.Fprintf(w, "        applies: %s\n", n.Configuration)
			list := func(what string, l []string) {
				if len(l) > 0 {
					fmt.Fprintf(w, "        %s: %s\n", what, strings.Join(l, ", "))
				}
			}
			list("wiped (removed under the new CRD only)", n.Wiped)
			list("no longer removed", n.NoLongerWiped)
			list("changed", n.Changed)
			list("new conflicts", n.NewConflicts)
			list("conflicts gone", n.GoneConflicts)
			if strings.Join(n.Old.Owned, ",") != strings.Join(n.New.Owned, ",") {
				list("owns afterwards under the old CRD", n.Old.Owned)
				list("owns afterwards under the new CRD", n.New.Owned)
			}
		}
	}
}

// wrap breaks s into lines of at most width columns (words longer stay
// whole), each starting with prefix.
func wrap(s, prefix string, width int) string {
	var b strings.Builder
	line := prefix
	for _, word := range strings.Fields(s) {
		if line != prefix && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}
