package vector

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encode is the storage form of a vector, for a store's data file: each
// component as its IEEE 754 bits, 4 bytes little-endian, in order, with
// no header (the store records the model and dimension beside it).
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode reads a vector of dim components written by Encode. It fails
// when b is not 4·dim bytes long and when a component is NaN or infinite,
// which no stored embedding may be; whatever it accepts, Encode gives
// back byte for byte.
func Decode(b []byte, dim int) ([]float32, error) {
	if dim < 0 || len(b) != 4*dim {
		return nil, fmt.Errorf("vector: decode: %d bytes, want %d for %d dimensions", len(b), 4*max(dim, 0), dim)
	}
	v := make([]float32, dim)
	for i := range v {
		bits := binary.LittleEndian.Uint32(b[4*i:])
		// Exponent all ones: NaN or ±Inf. Tested on the bits, before any
		// float conversion could touch a NaN's payload.
		if bits&0x7f800000 == 0x7f800000 {
			return nil, fmt.Errorf("vector: decode: %w: component %d has bits %#08x", ErrNotFinite, i, bits)
		}
		v[i] = math.Float32frombits(bits)
	}
	return v, nil
}
