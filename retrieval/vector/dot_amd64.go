//go:build amd64 && !purego

package vector

import "golang.org/x/sys/cpu"

// useAVX2 is whether this CPU runs dotAVX2 (AVX2 and FMA3: Intel since
// 2013, AMD since 2015).
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAVX2 is the inner product of the n float32s at a and at b, with
// eight-wide fused multiply-adds into four accumulators (dot_amd64.s).
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

// dot is the inner product of a and b, which must be as long as a: the
// AVX2 kernel where the CPU has it, else dotGo. The kernel adds in
// another order than dotGo, so the last bits of a score may differ
// between machines, never between runs on one.
func dot(a, b []float32) float32 {
	if useAVX2 && len(a) > 0 {
		b = b[:len(a)]
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGo(a, b)
}

// dotI8AVX2 is the inner product of the n float32s at q and the n int8s
// at c, each eight int8s widened to int32 and converted to float32
// (exactly) before a fused multiply-add (dot_amd64.s).
//
//go:noescape
func dotI8AVX2(q *float32, c *int8, n int) float32

// useAVX512 is whether this CPU (and OS) runs dotI8AVX512.
var useAVX512 = useAVX2 && cpu.X86.HasAVX512F

// dotI8AVX512 is dotI8AVX2 sixteen lanes wide (dot_amd64.s).
//
//go:noescape
func dotI8AVX512(q *float32, c *int8, n int) float32

// dotI8 is the inner product of q and c, which must be as long as q: the
// AVX-512 or AVX2 kernel where the CPU has it, else dotI8Go.
func dotI8(q []float32, c []int8) float32 {
	if useAVX512 && len(q) > 0 {
		c = c[:len(q)]
		return dotI8AVX512(&q[0], &c[0], len(q))
	}
	if useAVX2 && len(q) > 0 {
		c = c[:len(q)]
		return dotI8AVX2(&q[0], &c[0], len(q))
	}
	return dotI8Go(q, c)
}
