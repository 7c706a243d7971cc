package library

import "math/big"

// decimal is an arbitrary-precision decimal number unscaled × 10^-scale, with
// the semantics of gopkg.in/inf.v0's Dec that k8s.io/apimachinery's
// resource.Quantity relies on (scale is "upside down": positive scale means
// digits after the decimal point).
type decimal struct {
	unscaled big.Int
	scale    int32
}

var bigTenInt = big.NewInt(10)

// maxRescaleDigits bounds the powers of ten built when aligning scales.
// Upstream (inf.Dec) has no bound and spends minutes or exhausts memory on
// inputs such as quantity("1e2000000000").add(1); here such operations
// report errQuantityRange instead. 2^17 digits is far beyond any realistic
// quantity and still cheap to compute.
const maxRescaleDigits = 1 << 17

func pow10Big(n int32) *big.Int {
	return new(big.Int).Exp(bigTenInt, big.NewInt(int64(n)), nil)
}

func newDecimal(unscaled int64, scale int32) *decimal {
	d := &decimal{scale: scale}
	d.unscaled.SetInt64(unscaled)
	return d
}

func (d *decimal) copy() *decimal {
	c := &decimal{scale: d.scale}
	c.unscaled.Set(&d.unscaled)
	return c
}

func (d *decimal) sign() int { return d.unscaled.Sign() }

// rescaled returns d with a scale of at least s (only ever increases the scale,
// as inf's upscale).
func (d *decimal) rescaled(s int32) *decimal {
	if s <= d.scale {
		return d
	}
	c := &decimal{scale: s}
	c.unscaled.Mul(&d.unscaled, pow10Big(s-d.scale))
	return c
}

func upscaleDecimals(a, b *decimal) (*decimal, *decimal) {
	switch {
	case a.scale == b.scale:
		return a, b
	case a.scale > b.scale:
		return a, b.rescaled(a.scale)
	default:
		return a.rescaled(b.scale), b
	}
}

// cmp compares d and o (inf.Dec.Cmp). Values whose most significant digits
// are at different powers of ten are ordered without rescaling, so comparing
// 1e2000000000 with 1m does not build a two-billion-digit number; otherwise
// the scales differ by at most the number of digits and rescaling is cheap.
func (d *decimal) cmp(o *decimal) int {
	sd, so := d.sign(), o.sign()
	if sd != so {
		if sd < so {
			return -1
		}
		return 1
	}
	if sd == 0 {
		return 0
	}
	md := int64(len(d.unscaled.Text(10))) - int64(d.scale)
	mo := int64(len(o.unscaled.Text(10))) - int64(o.scale)
	if sd < 0 {
		md, mo = md-1, mo-1 // the '-' sign is counted by Text
	}
	if md != mo {
		if (md > mo) == (sd > 0) {
			return 1
		}
		return -1
	}
	a, b := upscaleDecimals(d, o)
	return a.unscaled.Cmp(&b.unscaled)
}

// add sets d = x + y (inf.Dec.Add).
func (d *decimal) add(x, y *decimal) *decimal {
	a, b := upscaleDecimals(x, y)
	var r big.Int
	r.Add(&a.unscaled, &b.unscaled)
	d.scale = a.scale
	d.unscaled.Set(&r)
	return d
}

// sub sets d = x - y (inf.Dec.Sub).
func (d *decimal) sub(x, y *decimal) *decimal {
	a, b := upscaleDecimals(x, y)
	var r big.Int
	r.Sub(&a.unscaled, &b.unscaled)
	d.scale = a.scale
	d.unscaled.Set(&r)
	return d
}

func (d *decimal) neg() { d.unscaled.Neg(&d.unscaled) }

// roundUp returns d rounded to scale s, away from zero (inf.RoundUp).
func (d *decimal) roundUp(s int32) *decimal {
	r := &decimal{scale: s}
	if s >= d.scale {
		r.unscaled.Mul(&d.unscaled, pow10Big(s-d.scale))
		return r
	}
	if int64(d.scale)-int64(s) > int64(len(d.unscaled.Text(10))) {
		// |d| < 10^-s: the quotient is 0 and any non-zero value rounds away
		// from zero to one unit (computed without building 10^(d.scale-s)).
		r.unscaled.SetInt64(int64(d.unscaled.Sign()))
		return r
	}
	var rem big.Int
	r.unscaled.QuoRem(&d.unscaled, pow10Big(d.scale-s), &rem)
	if rem.Sign() != 0 {
		r.unscaled.Add(&r.unscaled, big.NewInt(int64(rem.Sign())))
	}
	return r
}

// setString parses the syntax accepted by inf.Dec.SetString: an optional sign,
// digits with at most one decimal point, at least one digit.
func parseDecimal(s string) (*decimal, bool) {
	unscaled := make([]byte, 0, len(s))
	dp, dg := -1, -1
	i := 0
	for ; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '+' || ch == '-':
			if len(unscaled) > 0 || dp >= 0 {
				return nil, false
			}
		case ch == '.':
			if dp >= 0 {
				return nil, false
			}
			dp = len(unscaled)
			continue
		case ch >= '0' && ch <= '9':
			if dg == -1 {
				dg = len(unscaled)
			}
		default:
			return nil, false
		}
		unscaled = append(unscaled, ch)
	}
	if dg == -1 {
		return nil, false
	}
	d := &decimal{}
	if dp >= 0 {
		d.scale = int32(len(unscaled) - dp)
	}
	if !setDecimalDigits(&d.unscaled, string(unscaled)) {
		return nil, false
	}
	return d, true
}

// setDecimalDigits is z.SetString(s, 10) for an optional sign followed by
// decimal digits. big.Int's conversion is quadratic in the number of digits
// (3,000,000 digits: minutes); long inputs are split in halves and joined by
// multiplication (hi·10^len(lo) + lo), which is subquadratic. Same value.
func setDecimalDigits(z *big.Int, s string) bool {
	const direct = 4096
	if len(s) <= direct {
		_, ok := z.SetString(s, 10)
		return ok
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	pows := map[int]*big.Int{}
	var conv func(s string) *big.Int
	conv = func(s string) *big.Int {
		if len(s) <= direct {
			v, _ := new(big.Int).SetString(s, 10)
			return v
		}
		n := len(s) / 2
		hi, lo := conv(s[:len(s)-n]), conv(s[len(s)-n:])
		p, ok := pows[n]
		if !ok {
			p = pow10Big(int32(n))
			pows[n] = p
		}
		return hi.Add(hi.Mul(hi, p), lo)
	}
	z.Set(conv(s))
	if neg {
		z.Neg(z)
	}
	return true
}
