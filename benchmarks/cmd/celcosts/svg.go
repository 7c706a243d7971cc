package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// A minimal SVG writer for the two plots of cel-costs.md: no plotting
// dependency, deterministic output.

type point struct {
	x, y  float64
	group string
}

// scatterLogLog plots points (x, y > 0) on log10 axes, one colour per
// group, with a legend, decade ticks and a dashed line of slope 1 through
// the median ratio (where the points would lie if time were proportional
// to cost units).
func scatterLogLog(title, xLabel, yLabel string, pts []point, groups []string) string {
	const w, h, left, right, top, bottom = 900.0, 620.0, 80.0, 200.0, 40.0, 60.0
	pw, ph := w-left-right, h-top-bottom
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var ratios []float64
	for _, p := range pts {
		if p.x <= 0 || p.y <= 0 {
			continue
		}
		minX, maxX = math.Min(minX, p.x), math.Max(maxX, p.x)
		minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
		ratios = append(ratios, math.Log10(p.y)-math.Log10(p.x))
	}
	if math.IsInf(minX, 1) {
		minX, maxX, minY, maxY = 1, 10, 1, 10
	}
	x0, x1 := math.Floor(math.Log10(minX)), math.Ceil(math.Log10(maxX))
	y0, y1 := math.Floor(math.Log10(minY)), math.Ceil(math.Log10(maxY))
	if x1 == x0 {
		x1++
	}
	if y1 == y0 {
		y1++
	}
	sx := func(v float64) float64 { return left + (math.Log10(v)-x0)/(x1-x0)*pw }
	sy := func(v float64) float64 { return top + ph - (math.Log10(v)-y0)/(y1-y0)*ph }
	var b strings.Builder
	header(&b, w, h, title)
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#444"/>`+"\n", left, top, pw, ph)
	for e := x0; e <= x1; e++ {
		x := left + (e-x0)/(x1-x0)*pw
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x, top, x, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, top+ph+18, pow10(e))
	}
	for e := y0; e <= y1; e++ {
		y := top + ph - (e-y0)/(y1-y0)*ph
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+pw, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, pow10(e))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", left+pw/2, h-15, html.EscapeString(xLabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+ph/2, html.EscapeString(yLabel))
	if len(ratios) > 0 {
		m := median(ratios)
		// y = x * 10^m, clipped to the plot
		xa, xb := math.Pow(10, x0), math.Pow(10, x1)
		ya, yb := xa*math.Pow(10, m), xb*math.Pow(10, m)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888" stroke-dasharray="6 4" clip-path="url(#plot)"/>`+"\n", sx(xa), sy(ya), sx(xb), sy(yb))
		fmt.Fprintf(&b, `<clipPath id="plot"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath>`+"\n", left, top, pw, ph)
	}
	color := map[string]string{}
	for i, g := range groups {
		color[g] = palette[i%len(palette)]
	}
	for _, p := range pts {
		if p.x <= 0 || p.y <= 0 {
			continue
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s" fill-opacity="0.6"/>`+"\n", sx(p.x), sy(p.y), color[p.group])
	}
	for i, g := range groups {
		y := top + 10 + float64(i)*18
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s"/>`+"\n", left+pw+20, y, color[g])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", left+pw+30, y+4, html.EscapeString(g))
	}
	y := top + 10 + float64(len(groups))*18 + 10
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888" stroke-dasharray="6 4"/>`+"\n", left+pw+12, y, left+pw+28, y)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">median ns/unit</text>`+"\n", left+pw+30, y+4)
	b.WriteString("</svg>\n")
	return b.String()
}

type bar struct {
	label string
	value float64
	note  string
}

// barChart draws horizontal bars, largest first as given.
func barChart(title, unit string, bars []bar) string {
	const w, left, right, top, rowH = 1000.0, 400.0, 250.0, 40.0, 22.0
	h := top + rowH*float64(len(bars)) + 30
	pw := w - left - right
	maxV := 0.0
	for _, b := range bars {
		maxV = math.Max(maxV, b.value)
	}
	if maxV == 0 {
		maxV = 1
	}
	var b strings.Builder
	header(&b, w, h, title)
	for i, x := range bars {
		y := top + float64(i)*rowH
		bw := x.value / maxV * pw
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, y+rowH*0.65, html.EscapeString(x.label))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", left, y+3, bw, rowH-6, palette[0])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s %s%s</text>`+"\n", left+bw+6, y+rowH*0.65, trimFloat(x.value), html.EscapeString(unit), html.EscapeString(x.note))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

func header(b *strings.Builder, w, h float64, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(b, `<text x="%.1f" y="24" text-anchor="middle" font-size="15">%s</text>`+"\n", w/2, html.EscapeString(title))
}

func pow10(e float64) string {
	if e >= 0 && e <= 6 {
		return fmt.Sprintf("%.0f", math.Pow(10, e))
	}
	return fmt.Sprintf("1e%d", int(e))
}

func trimFloat(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
