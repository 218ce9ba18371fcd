package vector

import (
	"fmt"
	"math"
)

// dotGo is the inner product of a and b, which must be as long as a, in
// portable Go; dot uses it where no assembly version runs. It is
// the whole cost of a search, so it is written for the compiler: the loop
// condition tests both lengths, which proves every index in the body in
// bounds (no bounds checks are left in it: go build
// -gcflags=-d=ssa/check_bce), and eight independent accumulators let
// the CPU overlap eight multiply-adds instead of waiting on one running
// sum. Go does not vectorize loops itself; BenchmarkDot measures this
// against the plain loop: 1.6 times as fast, and still limited by its
// two scalar loads per component, which only vector instructions lift.
func dotGo(a, b []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for ; len(a) >= 8 && len(b) >= 8; a, b = a[8:], b[8:] {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// normalizeInto writes v scaled to unit length into dst (len(dst) ==
// len(v)). The norm is summed in float64, where squares of float32 values
// cannot overflow, so a non-finite sum means a non-finite component; that
// component is then found for the error.
func normalizeInto(dst, v []float32) error {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		for i, x := range v {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("%w: component %d is %v", ErrNotFinite, i, x)
			}
		}
	}
	if sum == 0 {
		return ErrZero
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		dst[i] = float32(float64(x) * inv)
	}
	return nil
}

// Normalize returns a copy of v scaled to unit length, the form the index
// stores, so that cosine similarity is a plain dot product. It fails on a
// vector with a NaN or infinite component (ErrNotFinite) and on the zero
// vector (ErrZero), which has no direction.
func Normalize(v []float32) ([]float32, error) {
	out := make([]float32, len(v))
	if err := normalizeInto(out, v); err != nil {
		return nil, err
	}
	return out, nil
}

// dotI8Go is the inner product of the float32s q and the int8s c, which
// must be as long as q, in portable Go: dotI8 where no assembly runs,
// and the tests' reference for the kernel.
func dotI8Go(q []float32, c []int8) float32 {
	var s0, s1, s2, s3 float32
	for ; len(q) >= 4 && len(c) >= 4; q, c = q[4:], c[4:] {
		s0 += q[0] * float32(c[0])
		s1 += q[1] * float32(c[1])
		s2 += q[2] * float32(c[2])
		s3 += q[3] * float32(c[3])
	}
	for i := 0; i < len(q) && i < len(c); i++ {
		s0 += q[i] * float32(c[i])
	}
	return (s0 + s1) + (s2 + s3)
}
