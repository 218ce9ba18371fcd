package vector

import (
	"fmt"
	"math"
)

// dot is the inner product of a and b, which must be as long as a. It is
// the whole cost of a search, so it is written for the compiler: the
// re-slice of b to len(a) and the fixed-size windows remove the bounds
// checks from the loop, and eight independent accumulators let the CPU
// run eight multiply-adds at once instead of waiting on one running sum
// (Go does not vectorize loops itself; this is as close as portable Go
// gets, measured against an assembly AVX2 dot in BenchmarkDot).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s4 += x[4] * y[4]
		s5 += x[5] * y[5]
		s6 += x[6] * y[6]
		s7 += x[7] * y[7]
	}
	for ; i < len(a); i++ {
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
