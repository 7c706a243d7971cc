package engine

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// kubeVersionRegex mirrors k8s.io/apimachinery/pkg/version's, compiled on
// first use (not at the wasm module's start-up).
var kubeVersionRegex = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v([\d]+)(?:(alpha|beta)([\d]+))?$`)
})

const (
	versionTypeAlpha = iota
	versionTypeBeta
	versionTypeGA
)

func parseKubeVersion(v string) (major, vType, minor int, ok bool) {
	m := kubeVersionRegex().FindStringSubmatch(v)
	if len(m) != 4 {
		return 0, 0, 0, false
	}
	switch m[2] {
	case "alpha":
		vType = versionTypeAlpha
	case "beta":
		vType = versionTypeBeta
	case "":
		vType = versionTypeGA
	default:
		return 0, 0, 0, false
	}
	var err error
	if major, err = strconv.Atoi(m[1]); err != nil {
		return 0, 0, 0, false
	}
	if vType != versionTypeGA {
		if minor, err = strconv.Atoi(m[3]); err != nil {
			return 0, 0, 0, false
		}
	}
	return major, vType, minor, true
}

// compareKubeAwareVersionStrings mirrors version.CompareKubeAwareVersionStrings:
// GA > beta > alpha, then major, then minor; non-kube versions sort last,
// reverse-lexically among themselves.
func compareKubeAwareVersionStrings(v1, v2 string) int {
	if v1 == v2 {
		return 0
	}
	m1, t1, n1, ok1 := parseKubeVersion(v1)
	m2, t2, n2, ok2 := parseKubeVersion(v2)
	switch {
	case !ok1 && !ok2:
		return strings.Compare(v2, v1)
	case !ok1 && ok2:
		return -1
	case ok1 && !ok2:
		return 1
	}
	if t1 != t2 {
		return t1 - t2
	}
	if m1 != m2 {
		return m1 - m2
	}
	return n1 - n2
}
