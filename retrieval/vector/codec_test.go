package vector

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	v := gaussians(r, 1, 1536)[0]
	v[0], v[1], v[2] = float32(math.Copysign(0, -1)), math.MaxFloat32, math.SmallestNonzeroFloat32
	b := Encode(v)
	if len(b) != 4*len(v) {
		t.Fatalf("encoded %d floats in %d bytes", len(v), len(b))
	}
	got, err := Decode(b, len(v))
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if math.Float32bits(got[i]) != math.Float32bits(v[i]) {
			t.Fatalf("component %d: %v back as %v", i, v[i], got[i])
		}
	}
	if _, err := Decode(b, len(v)-1); err == nil {
		t.Error("decoded 1536 floats as 1535")
	}
	if _, err := Decode(b[:len(b)-1], len(v)); err == nil {
		t.Error("decoded a truncated vector")
	}
	nan := Encode([]float32{1, float32(math.NaN())})
	if _, err := Decode(nan, 2); !errors.Is(err, ErrNotFinite) {
		t.Errorf("decoding a NaN: %v, want %v", err, ErrNotFinite)
	}
}

// FuzzDecode: whatever Decode accepts re-encodes to the same bytes, it
// accepts exactly the inputs of 4·dim bytes with no NaN or infinity, and
// its vectors are valid to add unless zero.
func FuzzDecode(f *testing.F) {
	f.Add(Encode([]float32{1, -2.5, 0}), 3)
	f.Add([]byte{0, 0, 0x80, 0x7f}, 1)    // +Inf
	f.Add([]byte{1, 0, 0x80, 0xff}, 1)    // a NaN
	f.Add([]byte{0, 0, 0, 0x80, 0xff}, 1) // one byte too many
	f.Add([]byte{}, 0)
	f.Fuzz(func(t *testing.T, b []byte, dim int) {
		v, err := Decode(b, dim)
		finite := len(b)%4 == 0
		for i := 0; finite && i < len(b); i += 4 {
			finite = b[i+3]&0x7f != 0x7f || b[i+2]&0x80 == 0
		}
		valid := dim >= 0 && len(b) == 4*dim && finite
		if (err == nil) != valid {
			t.Fatalf("Decode(% x, %d) error %v; valid %v", b, dim, err, valid)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(Encode(v), b) {
			t.Fatalf("Decode(% x) = %v, encodes back as % x", b, v, Encode(v))
		}
		if dim == 0 {
			return
		}
		x, err := New(dim)
		if err != nil {
			t.Fatal(err)
		}
		err = x.Add(1, v)
		zero := !slices.ContainsFunc(v, func(c float32) bool { return c != 0 })
		if zero != errors.Is(err, ErrZero) || (!zero && err != nil) {
			t.Fatalf("adding decoded %v: %v", v, err)
		}
	})
}
