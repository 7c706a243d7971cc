package library

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// This file reimplements the parts of k8s.io/apimachinery/pkg/api/resource
// (v0.37.2) that the quantity library observes: ParseQuantity with its exact
// choice between the int64 and the decimal representation (which decides
// isInteger/asInteger and asApproximateFloat), Add/Sub/Cmp/Sign/AsInt64 and the
// canonical String form.

// QuantityFormat is resource.Format.
type QuantityFormat string

// Quantity formats, as resource.Format.
const (
	DecimalExponent = QuantityFormat("DecimalExponent")
	BinarySI        = QuantityFormat("BinarySI")
	DecimalSI       = QuantityFormat("DecimalSI")
)

// quantityScale is resource.Scale: a power of ten (positive = larger).
type quantityScale int32

const (
	scaleNano quantityScale = -9
)

const (
	splitREString   = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
	maxInt64Factors = 18
	mostNegative    = -(mostPositive + 1)
	mostPositive    = 1<<63 - 1
)

// Errors returned by ParseQuantity, with upstream's texts.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '" + splitREString + "'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
	// errQuantityRange is crdlab's own: see maxRescaleDigits.
	errQuantityRange = errors.New("quantity exponent is out of the supported range")
)

type int64Amount struct {
	value int64
	scale quantityScale
}

// ResourceQuantity is a fixed-point number with the semantics of resource.Quantity.
type ResourceQuantity struct {
	i int64Amount
	d *decimal
	s string
	// Format is the format the quantity was parsed with (or inherited by arithmetic).
	Format QuantityFormat
}

// NewResourceQuantity returns value with scale 0 in format f (resource.NewQuantity).
func NewResourceQuantity(value int64, f QuantityFormat) *ResourceQuantity {
	return &ResourceQuantity{i: int64Amount{value: value}, Format: f}
}

// ParseQuantity parses s as resource.ParseQuantity does.
func ParseQuantity(str string) (ResourceQuantity, error) {
	if len(str) == 0 {
		return ResourceQuantity{}, ErrFormatWrong
	}
	if str == "0" {
		return ResourceQuantity{Format: DecimalSI, s: str}, nil
	}
	positive, value, num, denom, suf, err := splitQuantity(str)
	if err != nil {
		return ResourceQuantity{}, err
	}
	base, exponent, format, ok := interpretSuffix(suf)
	if !ok {
		return ResourceQuantity{}, ErrSuffix
	}

	precision := int32(0)
	scale := int32(0)
	mantissa := int64(1)
	switch format {
	case DecimalExponent, DecimalSI:
		scale = exponent
		precision = maxInt64Factors - int32(len(num)+len(denom))
	case BinarySI:
		scale = 0
		switch {
		case exponent >= 0 && len(denom) == 0:
			mantissa = mantissa << uint64(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		default:
			precision = -1
		}
	}

	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= int32(scaleNano) {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err != nil {
				return ResourceQuantity{}, ErrNumeric
			}
			if result, ok := int64Multiply(v, mantissa); ok {
				if !positive {
					result = -result
				}
				amount := int64Amount{value: result, scale: quantityScale(scale)}
				switch format {
				case BinarySI:
					if exponent%10 == 0 && (v&0x07 != 0) {
						return ResourceQuantity{i: amount, Format: format, s: str}, nil
					}
				default:
					if scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
						return ResourceQuantity{i: amount, Format: format, s: str}, nil
					}
				}
				return ResourceQuantity{i: amount, Format: format}, nil
			}
		}
	}

	amount, ok := parseDecimal(value)
	if !ok {
		return ResourceQuantity{}, ErrNumeric
	}
	if base == 10 {
		amount.scale = amount.scale - exponent
	} else if base == 2 {
		amount.unscaled.Mul(&amount.unscaled, new(big.Int).Lsh(big.NewInt(1), uint(exponent)))
	}
	sign := amount.sign()
	if sign == -1 {
		amount.neg()
	}
	if amount.unscaled.Sign() != 0 && int64(-scaleNano)-int64(amount.scale) > maxRescaleDigits {
		return ResourceQuantity{}, errQuantityRange
	}
	if amount.unscaled.Sign() != 0 {
		amount = amount.roundUp(-int32(scaleNano))
	}
	maxAllowed := newDecimal(mostPositive, 0)
	if format == BinarySI && amount.cmp(maxAllowed) > 0 {
		amount = maxAllowed
	}
	if format == BinarySI && amount.cmp(newDecimal(1, 0)) < 0 && amount.cmp(newDecimal(0, 0)) > 0 {
		format = DecimalSI
	}
	if sign == -1 {
		amount.neg()
	}
	return ResourceQuantity{d: amount, Format: format}, nil
}

// splitQuantity is resource.parseQuantityString.
func splitQuantity(str string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos := 0
	end := len(str)
	if pos < end {
		switch str[0] {
		case '-':
			positive = false
			pos++
		case '+':
			pos++
		}
	}
	for i := pos; ; i++ {
		if i >= end {
			num = "0"
			value = num
			return
		}
		if str[i] != '0' {
			break
		}
		pos++
	}
	for i := pos; ; i++ {
		if i >= end {
			num = str[pos:end]
			value = str[0:end]
			return
		}
		if !isDigit(str[i]) {
			num = str[pos:i]
			pos = i
			break
		}
	}
	if len(num) == 0 {
		num = "0"
	}
	if pos < end && str[pos] == '.' {
		pos++
		for i := pos; ; i++ {
			if i >= end {
				denom = str[pos:end]
				value = str[0:end]
				return
			}
			if !isDigit(str[i]) {
				denom = str[pos:i]
				pos = i
				break
			}
		}
	}
	value = str[0:pos]
	suffixStart := pos
	for i := pos; ; i++ {
		if i >= end {
			suffix = str[suffixStart:end]
			return
		}
		if !strings.ContainsAny(str[i:i+1], "eEinumkKMGTP") {
			pos = i
			break
		}
	}
	if pos < end {
		switch str[pos] {
		case '-', '+':
			pos++
		}
	}
	for i := pos; ; i++ {
		if i >= end {
			suffix = str[suffixStart:end]
			return
		}
		if !isDigit(str[i]) {
			break
		}
	}
	err = ErrFormatWrong
	return
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
var binarySuffixes = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

func interpretSuffix(s string) (base, exponent int32, format QuantityFormat, ok bool) {
	if e, ok := decimalSuffixes[s]; ok {
		return 10, e, DecimalSI, true
	}
	if e, ok := binarySuffixes[s]; ok {
		return 2, e, BinarySI, true
	}
	if len(s) > 1 && (s[0] == 'E' || s[0] == 'e') {
		parsed, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, DecimalExponent, false
		}
		return 10, int32(parsed), DecimalExponent, true
	}
	return 0, 0, DecimalExponent, false
}

func constructSuffix(base, exponent int32, format QuantityFormat) string {
	switch format {
	case DecimalSI:
		for s, e := range decimalSuffixes {
			if e == exponent && base == 10 {
				return s
			}
		}
		return ""
	case BinarySI:
		if base == 2 && exponent == 0 {
			return "" // upstream registers ("", {2,0}) among the decimal suffixes only
		}
		for s, e := range binarySuffixes {
			if e == exponent && base == 2 {
				return s
			}
		}
		return ""
	case DecimalExponent:
		if base != 10 || exponent == 0 {
			return ""
		}
		return "e" + strconv.FormatInt(int64(exponent), 10)
	}
	return ""
}

// --- int64 helpers (resource/math.go) ---

func int64Add(a, b int64) (int64, bool) {
	c := a + b
	switch {
	case a > 0 && b > 0:
		if c < 0 {
			return 0, false
		}
	case a < 0 && b < 0:
		if c > 0 {
			return 0, false
		}
		if a == mostNegative && b == mostNegative {
			return 0, false
		}
	}
	return c, true
}

func int64Multiply(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == mostNegative || b == mostNegative {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

func int64MultiplyScale(a int64, b int64) (int64, bool) {
	if a == 0 || a == 1 {
		return a * b, true
	}
	if a == mostNegative && b != 1 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

func positiveScaleInt64(base int64, scale quantityScale) (int64, bool) {
	switch scale {
	case 0:
		return base, true
	case 1:
		return int64MultiplyScale(base, 10)
	case 2:
		return int64MultiplyScale(base, 100)
	case 3:
		return int64MultiplyScale(base, 1000)
	case 6:
		return int64MultiplyScale(base, 1000000)
	case 9:
		return int64MultiplyScale(base, 1000000000)
	default:
		value := base
		var ok bool
		for i := quantityScale(0); i < scale; i++ {
			if value, ok = int64MultiplyScale(value, 10); !ok {
				return 0, false
			}
		}
		return value, true
	}
}

func negativeScaleInt64(base int64, scale quantityScale) (result int64, exact bool) {
	if scale == 0 {
		return base, true
	}
	value := base
	var fraction bool
	for i := quantityScale(0); i < scale; i++ {
		if !fraction && value%10 != 0 {
			fraction = true
		}
		value = value / 10
		if value == 0 {
			if fraction {
				if base > 0 {
					return 1, false
				}
				return -1, false
			}
			return 0, true
		}
	}
	if fraction {
		if base > 0 {
			value++
		} else {
			value--
		}
	}
	return value, !fraction
}

func divideByScaleInt64(base int64, scale quantityScale) (result, remainder int64, exact bool) {
	if scale == 0 {
		return base, 0, true
	}
	if scale >= 18 {
		return 0, base, false
	}
	divisor := int64(1)
	for i := quantityScale(0); i < scale; i++ {
		divisor *= 10
	}
	return base / divisor, base % divisor, true
}

func removeInt64Factors(value int64, base int64) (result int64, times int32) {
	result = value
	negative := result < 0
	if negative {
		result = -result
	}
	for result >= base && result%base == 0 {
		times++
		result = result / base
	}
	if negative {
		result = -result
	}
	return result, times
}

func removeBigIntFactors(d, factor *big.Int) (result *big.Int, times int32) {
	q := big.NewInt(0)
	m := big.NewInt(0)
	for d.Sign() != 0 {
		q.DivMod(d, factor, m)
		if m.Sign() != 0 {
			break
		}
		times++
		d, q = q, d
	}
	return d, times
}

// --- int64Amount (resource/amount.go) ---

func (a int64Amount) sign() int {
	switch {
	case a.value == 0:
		return 0
	case a.value > 0:
		return 1
	default:
		return -1
	}
}

func (a int64Amount) asInt64() (int64, bool) {
	if a.scale == 0 {
		return a.value, true
	}
	if a.scale < 0 {
		return 0, false
	}
	return positiveScaleInt64(a.value, a.scale)
}

func (a int64Amount) asScaledInt64(scale quantityScale) (int64, bool) {
	if a.scale < scale {
		result, _ := negativeScaleInt64(a.value, scale-a.scale)
		return result, true
	}
	return positiveScaleInt64(a.value, a.scale-scale)
}

func (a int64Amount) asDec() *decimal {
	return newDecimal(a.value, -int32(a.scale))
}

func (a int64Amount) cmp(b int64Amount) int {
	switch {
	case a.scale == b.scale:
	case a.scale > b.scale:
		result, remainder, exact := divideByScaleInt64(b.value, a.scale-b.scale)
		if !exact {
			return a.asDec().cmp(b.asDec())
		}
		if result == a.value {
			switch {
			case remainder == 0:
				return 0
			case remainder > 0:
				return -1
			default:
				return 1
			}
		}
		b.value = result
	default:
		result, remainder, exact := divideByScaleInt64(a.value, b.scale-a.scale)
		if !exact {
			return a.asDec().cmp(b.asDec())
		}
		if result == b.value {
			switch {
			case remainder == 0:
				return 0
			case remainder > 0:
				return 1
			default:
				return -1
			}
		}
		a.value = result
	}
	switch {
	case a.value == b.value:
		return 0
	case a.value < b.value:
		return -1
	default:
		return 1
	}
}

func (a *int64Amount) add(b int64Amount) bool {
	switch {
	case b.value == 0:
		return true
	case a.value == 0:
		a.value = b.value
		a.scale = b.scale
		return true
	case a.scale == b.scale:
		c, ok := int64Add(a.value, b.value)
		if !ok {
			return false
		}
		a.value = c
	case a.scale > b.scale:
		c, ok := positiveScaleInt64(a.value, a.scale-b.scale)
		if !ok {
			return false
		}
		c, ok = int64Add(c, b.value)
		if !ok {
			return false
		}
		a.scale = b.scale
		a.value = c
	default:
		c, ok := positiveScaleInt64(b.value, b.scale-a.scale)
		if !ok {
			return false
		}
		c, ok = int64Add(a.value, c)
		if !ok {
			return false
		}
		a.value = c
	}
	return true
}

func (a *int64Amount) sub(b int64Amount) bool {
	return a.add(int64Amount{value: -b.value, scale: b.scale})
}

// --- ResourceQuantity methods ---

// DeepCopy returns an independent copy.
func (q ResourceQuantity) DeepCopy() ResourceQuantity {
	if q.d != nil {
		q.d = q.d.copy()
	}
	return q
}

func (q *ResourceQuantity) toDec() *ResourceQuantity {
	if q.d == nil {
		q.d = q.i.asDec()
		q.i = int64Amount{}
	}
	return q
}

func (q *ResourceQuantity) asDec() *decimal {
	if q.d != nil {
		return q.d
	}
	q.d = q.i.asDec()
	q.i = int64Amount{}
	return q.d
}

// IsZero reports whether q is zero.
func (q *ResourceQuantity) IsZero() bool {
	if q.d != nil {
		return q.d.sign() == 0
	}
	return q.i.value == 0
}

// Sign returns -1, 0 or 1.
func (q *ResourceQuantity) Sign() int {
	if q.d != nil {
		return q.d.sign()
	}
	return q.i.sign()
}

// AsInt64 returns the value as an int64 when it is held in the int64
// representation with a non-negative scale and fits (resource.Quantity.AsInt64).
func (q *ResourceQuantity) AsInt64() (int64, bool) {
	if q.d != nil {
		return 0, false
	}
	return q.i.asInt64()
}

// AsApproximateFloat64 is resource.Quantity.AsApproximateFloat64.
func (q *ResourceQuantity) AsApproximateFloat64() float64 {
	var base float64
	var exponent int
	if q.d != nil {
		base, _ = new(big.Float).SetInt(&q.d.unscaled).Float64()
		exponent = int(-q.d.scale)
	} else {
		base = float64(q.i.value)
		exponent = int(q.i.scale)
	}
	if exponent == 0 {
		return base
	}
	return base * math.Pow10(exponent)
}

// Add adds y to q (resource.Quantity.Add).
func (q *ResourceQuantity) Add(y ResourceQuantity) {
	q.s = ""
	if q.d == nil && y.d == nil {
		if q.i.value == 0 {
			q.Format = y.Format
		}
		if q.i.add(y.i) {
			return
		}
	} else if q.IsZero() {
		q.Format = y.Format
	}
	q.toDec()
	q.d.add(q.d, y.asDec())
}

// Sub subtracts y from q (resource.Quantity.Sub).
func (q *ResourceQuantity) Sub(y ResourceQuantity) {
	q.s = ""
	if q.IsZero() {
		q.Format = y.Format
	}
	if q.d == nil && y.d == nil && q.i.sub(y.i) {
		return
	}
	q.toDec()
	q.d.sub(q.d, y.asDec())
}

// effectiveScale is the decimal scale (digits after the point) of q's representation.
func (q *ResourceQuantity) effectiveScale() int64 {
	if q.d != nil {
		return int64(q.d.scale)
	}
	return -int64(q.i.scale)
}

// arithmeticInRange reports whether Add or Sub of q and y can align their
// scales within maxRescaleDigits (always true for realistic quantities).
func (q *ResourceQuantity) arithmeticInRange(y *ResourceQuantity) bool {
	if q.d == nil && y.d == nil && (q.i.value == 0 || y.i.value == 0) {
		return true // the int64 path adds a zero without aligning scales
	}
	d := q.effectiveScale() - y.effectiveScale()
	if d < 0 {
		d = -d
	}
	return d <= maxRescaleDigits
}

// Cmp returns -1, 0 or 1 comparing q with y. As upstream, when either side
// uses the decimal representation q is converted to it in place (so a
// quantity compared with a huge one is no longer isInteger()).
func (q *ResourceQuantity) Cmp(y ResourceQuantity) int {
	if q.d == nil && y.d == nil {
		return q.i.cmp(y.i)
	}
	return q.asDec().cmp(y.asDec())
}

// Equal reports whether q and v are numerically equal.
func (q ResourceQuantity) Equal(v ResourceQuantity) bool {
	return q.Cmp(v) == 0
}

func (q *ResourceQuantity) cmpInt64(y int64) int {
	if q.d != nil {
		return q.d.cmp(newDecimal(y, 0))
	}
	return q.i.cmp(int64Amount{value: y})
}

// String returns the canonical form (resource.Quantity.String).
func (q *ResourceQuantity) String() string {
	if q == nil {
		return "<nil>"
	}
	if len(q.s) != 0 {
		return q.s
	}
	// Upstream caches the canonical form in q.s; that is not observable, and
	// not caching keeps String free of writes (values may be shared by
	// concurrent evaluations).
	number, suffix := q.canonicalize()
	return number + suffix
}

func (q *ResourceQuantity) canonicalize() (string, string) {
	if q.IsZero() {
		return "0", ""
	}
	format := q.Format
	var roundedI *int64Amount
	var roundedD *decimal
	switch format {
	case DecimalExponent, DecimalSI:
	case BinarySI:
		if q.cmpInt64(-1024) > 0 && q.cmpInt64(1024) < 0 {
			format = DecimalSI
		} else if q.d != nil {
			r := q.d.roundUp(0)
			if r.cmp(q.d) != 0 {
				format = DecimalSI
			} else {
				roundedD = r
			}
		} else {
			r := q.i
			exact := true
			if r.scale < 0 {
				var v int64
				v, exact = negativeScaleInt64(r.value, -r.scale)
				r = int64Amount{value: v, scale: 0}
			}
			if !exact {
				format = DecimalSI
			} else {
				roundedI = &r
			}
		}
	default:
		format = DecimalExponent
	}
	switch format {
	case DecimalExponent, DecimalSI:
		var number string
		var exponent int32
		if q.d != nil {
			number, exponent = decCanonical(q.d)
		} else {
			number, exponent = int64Canonical(q.i)
		}
		return number, constructSuffix(10, exponent, format)
	default:
		var number string
		var exponent int32
		if roundedD != nil {
			number, exponent = decCanonical1024(roundedD)
		} else {
			value, ok := roundedI.asScaledInt64(0)
			if !ok {
				number, exponent = decCanonical1024(roundedI.asDec())
			} else {
				var amount int64
				amount, exponent = removeInt64Factors(value, 1024)
				number = strconv.FormatInt(amount, 10)
			}
		}
		return number, constructSuffix(2, exponent*10, format)
	}
}

func int64Canonical(a int64Amount) (string, int32) {
	exponent := int32(a.scale)
	amount, times := removeInt64Factors(a.value, 10)
	exponent += times
	var ok bool
	switch exponent % 3 {
	case 1, -2:
		amount, ok = int64MultiplyScale(amount, 10)
		if !ok {
			return decCanonical(a.asDec())
		}
		exponent = exponent - 1
	case 2, -1:
		amount, ok = int64MultiplyScale(amount, 100)
		if !ok {
			return decCanonical(a.asDec())
		}
		exponent = exponent - 2
	}
	return strconv.FormatInt(amount, 10), exponent
}

func decCanonical(d *decimal) (string, int32) {
	exponent := -d.scale
	amount, times := removeBigIntFactors(new(big.Int).Set(&d.unscaled), bigTenInt)
	exponent += times
	for exponent%3 != 0 {
		amount.Mul(amount, bigTenInt)
		exponent--
	}
	return amount.String(), exponent
}

func decCanonical1024(d *decimal) (string, int32) {
	r := d.roundUp(0)
	amount, exponent := removeBigIntFactors(new(big.Int).Set(&r.unscaled), big.NewInt(1024))
	return amount.String(), exponent
}
