package cel

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"sort"
	"sync"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/schema"
)

// Compiling a CRD compiles the same rule against the same type several
// times: the CRD checks (NewExpressions), the default-value validation (one
// NewValidator per defaulted node, StoredExpressions) and the serving
// validators (StoredExpressions, once per version). Upstream repeats that
// work; engine.CompileCRD memoizes it in one CompileCache that it creates,
// passes down to those three and drops when the compile is done.
//
// A compilation result depends only on the environment kind, the per-call
// cost limit, the rule's expressions and the DeclType of the node (its
// structure, type names, size estimates): the key holds exactly those, the
// DeclType as a SHA-256 digest of its whole content. The rule's fieldPath is
// resolved against the schema of each call, never taken from the cache.
// Programs are immutable and safe for concurrent use, so sharing them
// between validators changes nothing observable.

type typeDigest [sha256.Size]byte

type ruleCacheKey struct {
	kind              EnvKind
	messageKind       EnvKind
	env, messageEnv   envID
	perCallLimit      uint64
	decl              typeDigest
	rule              string
	messageExpression string
	optionalOldSelf   bool
}

type envCacheKey struct {
	kind EnvKind
	env  envID
	decl typeDigest
}

// envID names the base environment a rule compiles in: the set of
// library options of its kind at its release (library.OptionsMask). Two
// releases whose environments hold the same options compile every rule
// alike, so a cache shared between releases (CompileCache.At) keys on it.
type envID uint64

// envIDAt is the envID of kind at release rel (baseEnvOptions' choice).
func envIDAt(kind EnvKind, rel kubeversion.Release) envID {
	id := envID(library.OptionsMask(envMinor(kind, rel)))
	if !rel.Has(kubeversion.KubernetesTypeEqualityCost) || !rel.Has(kubeversion.URLResultSize) {
		id |= estimatorBefore132 // the binary's cost estimator differs (newCostEstimator)
	}
	if !rel.Has(kubeversion.DynSizePropagation) {
		id |= estimatorBefore133 // cel-go's size estimates differ (newCostEstimator)
	}
	if kind == NewExpressions && !rel.Has(kubeversion.KeywordFieldNames) {
		id |= keywordsNotFields // prepareEnvs
	}
	if !rel.Has(kubeversion.GlobalMatchesCost) {
		id |= estimatorBefore137 // the global matches is priced as O(1) (newCostEstimator)
	}
	if rel.Has(kubeversion.URLAccessorSize) {
		id |= estimatorFrom138 // the URL accessors carry their target's size (newCostEstimator)
	}
	return id
}

// estimatorFrom138 marks the envIDs of releases whose cost estimator gives
// the URL accessors their target's size (Kubernetes 1.38).
const estimatorFrom138 envID = 1 << 59

// estimatorBefore132 marks the envIDs of releases whose cost estimator
// leaves == on Kubernetes types to cel-go and gives url(s) no result size
// (the options mask uses the low bits, one per library option).
const estimatorBefore132 envID = 1 << 63

// estimatorBefore133 marks the envIDs of releases whose cost estimator
// gives dyn(x) and optionals of scalars no size (cel-go before v0.23).
const estimatorBefore133 envID = 1 << 61

// keywordsNotFields marks the envIDs of environments where a reserved
// word does not select the property escaped as __word__ (new expressions
// before 1.32).
const keywordsNotFields envID = 1 << 60

// estimatorBefore137 marks the envIDs of releases whose cost estimator
// prices the global matches(s, re) as an O(1) call (cel-go before v0.29).
const estimatorBefore137 envID = 1 << 62

// maxCachedRules bounds a cache that is kept for long: past it, the cache
// starts over.
const maxCachedRules = 1 << 14

// CompileCache memoizes rule compilations (see CompileCache.Compile and
// NewValidatorWithCache). Create one per CRD compile with NewCompileCache
// and drop it afterwards, so that nothing accumulates in a long-running
// process and each compile starts cold, as upstream's. It is safe for
// concurrent use; a nil *CompileCache memoizes nothing.
type CompileCache struct {
	// ctx, when set, is observed between rule compilations: once it ends,
	// compile returns its error (CompileContext).
	ctx context.Context
	*cacheStore
	// release is the Kubernetes release whose environments compile the
	// rules (the zero Release: the newest); newEnv and storedEnv are its
	// environments' envIDs.
	release           kubeversion.Release
	newEnv, storedEnv envID
}

// cacheStore is the memo of a CompileCache, shared by its views at other
// releases (At).
type cacheStore struct {
	mu      sync.Mutex
	digests map[*DeclType]typeDigest
	rules   map[ruleCacheKey]CompilationResult
	envs    map[envCacheKey]*ruleEnvs
	h       hash.Hash
}

// NewCompileCache returns an empty cache.
func NewCompileCache() *CompileCache {
	// One allocation for the cache and its store.
	b := &struct {
		CompileCache
		store cacheStore
	}{}
	c := &b.CompileCache
	c.cacheStore = &b.store
	c.reset()
	c.setRelease(kubeversion.Release{})
	return c
}

func (c *CompileCache) setRelease(rel kubeversion.Release) {
	c.release = rel
	c.newEnv, c.storedEnv = envIDAt(NewExpressions, rel), envIDAt(StoredExpressions, rel)
}

// At returns a view of c compiling as release rel does, observing ctx,
// that shares c's memo: a rule already compiled through any view in an
// environment rel builds alike (same library options, same DeclType) is
// not compiled again. It is how several releases of one CRD share their
// compile work (engine.CompileShare). A nil c gives a nil cache.
func (c *CompileCache) At(ctx context.Context, rel kubeversion.Release) *CompileCache {
	if c == nil {
		return nil
	}
	v := &CompileCache{cacheStore: c.cacheStore}
	if ctx != nil && ctx.Done() != nil {
		v.ctx = ctx
	}
	v.setRelease(rel)
	return v
}

func (c *CompileCache) envOf(k EnvKind) envID {
	if k == NewExpressions {
		return c.newEnv
	}
	return c.storedEnv
}

// NewCompileCacheContext returns an empty cache whose compilations observe
// ctx: once ctx ends, every Compile through it returns ctx's error, checked
// before each rule (and messageExpression) is compiled.
func NewCompileCacheContext(ctx context.Context) *CompileCache {
	c := NewCompileCache()
	if ctx != nil && ctx.Done() != nil {
		c.ctx = ctx
	}
	return c
}

// NewCompileCacheAt is NewCompileCacheContext compiling as Kubernetes
// release rel does (its CEL environments).
func NewCompileCacheAt(ctx context.Context, rel kubeversion.Release) *CompileCache {
	c := NewCompileCacheContext(ctx)
	c.setRelease(rel)
	return c
}

// Release is the Kubernetes release the cache compiles for (the zero
// Release for a nil cache).
func (c *CompileCache) Release() kubeversion.Release {
	if c == nil {
		return kubeversion.Release{}
	}
	return c.release
}

// Err is the error of the cache's context once it has ended, else nil.
func (c *CompileCache) Err() error {
	if c == nil || c.ctx == nil {
		return nil
	}
	return c.ctx.Err()
}

func (c *cacheStore) reset() {
	c.digests = map[*DeclType]typeDigest{}
	c.rules = map[ruleCacheKey]CompilationResult{}
	c.envs = map[envCacheKey]*ruleEnvs{}
}

// compile is Compile through c; s has rules and declType is not nil.
func (c *CompileCache) compile(s *schema.Structural, declType *DeclType, perCallLimit uint64, load EnvLoader) (results []CompilationResult, err error) {
	if err := c.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.rules) > maxCachedRules {
		c.reset()
	}
	d := c.digest(declType)
	results = make([]CompilationResult, len(s.XValidations))
	keys := make([]ruleCacheKey, len(s.XValidations))
	var missing []int
	for i, rule := range s.XValidations {
		kind, messageKind := load(rule.Rule, false), load(rule.MessageExpression, true)
		keys[i] = ruleCacheKey{
			kind:              kind,
			messageKind:       messageKind,
			env:               c.envOf(kind),
			messageEnv:        c.envOf(messageKind),
			perCallLimit:      perCallLimit,
			decl:              d,
			rule:              rule.Rule,
			messageExpression: rule.MessageExpression,
			optionalOldSelf:   rule.OptionalOldSelf != nil && *rule.OptionalOldSelf,
		}
		if r, hit := c.rules[keys[i]]; hit {
			results[i] = r
			results[i].NormalizedRuleFieldPath = normalizedFieldPath(r, rule, s)
		} else {
			missing = append(missing, i)
		}
	}
	envs := map[EnvKind]*ruleEnvs{}
	for _, i := range missing {
		for _, k := range []EnvKind{keys[i].kind, keys[i].messageKind} {
			if _, ok := envs[k]; !ok {
				envs[k] = c.envs[envCacheKey{k, c.envOf(k), d}]
			}
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return results, nil
	}
	for k, e := range envs {
		if e == nil {
			if envs[k], err = prepareEnvs(declType, k, c.release); err != nil {
				return nil, err
			}
		}
	}
	estimator := newCostEstimator(declType, c.release)
	maxCard := maxCardinality(declType.MinSerializedSize)
	for _, i := range missing {
		if err := c.Err(); err != nil {
			return nil, err
		}
		rule := s.XValidations[i]
		env, messageEnv, err := pickEnvs(envs[keys[i].kind], envs[keys[i].messageKind], keys[i].optionalOldSelf)
		if err != nil {
			return nil, err
		}
		results[i] = compileRule(s, rule, env, messageEnv, keys[i].kind, keys[i].messageKind, estimator, maxCard, perCallLimit, c.release)
	}
	c.mu.Lock()
	for k, e := range envs {
		c.envs[envCacheKey{k, c.envOf(k), d}] = e
	}
	for _, i := range missing {
		r := results[i]
		r.NormalizedRuleFieldPath = ""
		c.rules[keys[i]] = r
	}
	c.mu.Unlock()
	return results, nil
}

// normalizedFieldPath is what compileRule sets as NormalizedRuleFieldPath:
// the rule's fieldPath resolved against s, only when the rule and its
// messageExpression compiled.
func normalizedFieldPath(r CompilationResult, rule crd.ValidationRule, s *schema.Structural) string {
	if r.Program == nil || r.MessageExpressionError != nil || rule.FieldPath == "" {
		return ""
	}
	if p, _, err := ValidFieldPath(rule.FieldPath, s); err == nil {
		return p.String()
	}
	return ""
}

// digest returns the content digest of t, memoized by pointer (DeclTypes
// are not modified once built). c.mu is held.
func (c *cacheStore) digest(t *DeclType) typeDigest {
	if d, ok := c.digests[t]; ok {
		return d
	}
	var children []typeDigest
	var names []string
	if t.Fields != nil {
		names = make([]string, 0, len(t.Fields))
		for n := range t.Fields {
			names = append(names, n)
		}
		sort.Strings(names)
		children = make([]typeDigest, len(names))
		for i, n := range names {
			if f := t.Fields[n]; f != nil && f.Type != nil {
				children[i] = c.digest(f.Type)
			}
		}
	}
	var key, elem typeDigest
	if t.KeyType != nil {
		key = c.digest(t.KeyType)
	}
	if t.ElemType != nil {
		elem = c.digest(t.ElemType)
	}
	if c.h == nil {
		c.h = sha256.New()
	}
	h := c.h
	h.Reset()
	var buf [8]byte
	writeInt := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	writeStr := func(s string) {
		writeInt(int64(len(s)))
		h.Write([]byte(s))
	}
	writeStr(t.name)
	if t.celType != nil {
		writeStr(t.celType.String())
	} else {
		writeStr("")
	}
	writeInt(t.MaxElements)
	writeInt(t.MinSerializedSize)
	flags := int64(0)
	if t.Fields != nil {
		flags |= 1
	}
	if t.KeyType != nil {
		flags |= 2
	}
	if t.ElemType != nil {
		flags |= 4
	}
	writeInt(flags)
	h.Write(key[:])
	h.Write(elem[:])
	writeInt(int64(len(names)))
	for i, n := range names {
		f := t.Fields[n]
		writeStr(n)
		if f == nil {
			writeInt(-1)
			continue
		}
		writeStr(f.Name)
		req := int64(0)
		if f.Required {
			req = 1
		}
		if f.Type == nil {
			req |= 2
		}
		writeInt(req)
		h.Write(children[i][:])
	}
	var d typeDigest
	h.Sum(d[:0])
	c.digests[t] = d
	return d
}
