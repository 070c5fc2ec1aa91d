package password

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are the argon2id cost parameters and sizes of a hash.
type Params struct {
	// Memory is the memory cost in KiB.
	Memory uint32
	// Iterations is the number of passes over the memory.
	Iterations uint32
	// Parallelism is the number of lanes (and goroutines) per hash.
	Parallelism uint8
	// SaltLength is the length of the random salt in bytes.
	SaltLength uint32
	// KeyLength is the length of the derived key in bytes.
	KeyLength uint32
}

// DefaultParams are the parameters new hashes use: m=19 MiB, t=2, p=1,
// a 16-byte salt and a 32-byte key. The package documentation says why.
var DefaultParams = Params{
	Memory:      19 * 1024,
	Iterations:  2,
	Parallelism: 1,
	SaltLength:  16,
	KeyLength:   32,
}

// Bounds of accepted parameters. The upper bounds keep a corrupt or hostile
// stored hash from making one verification allocate gigabytes or run for
// minutes; the lower bounds keep a hash meaningful.
const (
	maxMemory      = 1 << 20 // KiB: 1 GiB
	maxIterations  = 16
	maxParallelism = 16
	minSaltLength  = 8
	maxSaltLength  = 64
	minKeyLength   = 16
	maxKeyLength   = 64
)

// phcPrefix starts every hash this package writes and reads: algorithm and
// version 19 (0x13), the only argon2 version in use.
var phcPrefix = "$argon2id$v=" + strconv.Itoa(argon2.Version) + "$"

// b64 is the base64 of PHC strings: standard alphabet, no padding.
var b64 = base64.RawStdEncoding.Strict()

// Validate reports whether p is within the accepted bounds.
func (p Params) Validate() error {
	switch {
	case p.Parallelism < 1 || p.Parallelism > maxParallelism:
		return fmt.Errorf("%w: parallelism %d not in 1..%d", ErrInvalidParams, p.Parallelism, maxParallelism)
	case p.Memory < 8*uint32(p.Parallelism) || p.Memory > maxMemory:
		return fmt.Errorf("%w: memory %d KiB not in %d..%d", ErrInvalidParams, p.Memory, 8*uint32(p.Parallelism), maxMemory)
	case p.Iterations < 1 || p.Iterations > maxIterations:
		return fmt.Errorf("%w: iterations %d not in 1..%d", ErrInvalidParams, p.Iterations, maxIterations)
	case p.SaltLength < minSaltLength || p.SaltLength > maxSaltLength:
		return fmt.Errorf("%w: salt length %d not in %d..%d", ErrInvalidParams, p.SaltLength, minSaltLength, maxSaltLength)
	case p.KeyLength < minKeyLength || p.KeyLength > maxKeyLength:
		return fmt.Errorf("%w: key length %d not in %d..%d", ErrInvalidParams, p.KeyLength, minKeyLength, maxKeyLength)
	}
	return nil
}

// String returns the parameters in PHC notation, for logs.
func (p Params) String() string {
	return fmt.Sprintf("m=%d,t=%d,p=%d", p.Memory, p.Iterations, p.Parallelism)
}

// decoded is a parsed PHC string.
type decoded struct {
	params Params
	salt   []byte
	key    []byte
}

// encode writes a PHC string.
func encode(p Params, salt, key []byte) string {
	return phcPrefix + p.String() + "$" + b64.EncodeToString(salt) + "$" + b64.EncodeToString(key)
}

// decode parses a PHC string strictly: it must be exactly what encode would
// write for the values it holds (no optional PHC fields, no leading zeros,
// no padding or line breaks in the base64), and within bounds.
func decode(s string) (decoded, error) {
	var d decoded
	rest, ok := strings.CutPrefix(s, phcPrefix)
	if !ok {
		return d, fmt.Errorf("%w: not an argon2id v=19 hash", ErrMalformedHash)
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return d, fmt.Errorf("%w: want 3 fields after the version, got %d", ErrMalformedHash, len(parts))
	}
	var err error
	if d.params, err = parseParams(parts[0]); err != nil {
		return d, err
	}
	if d.salt, err = b64.DecodeString(parts[1]); err != nil {
		return d, fmt.Errorf("%w: salt: %v", ErrMalformedHash, err)
	}
	if d.key, err = b64.DecodeString(parts[2]); err != nil {
		return d, fmt.Errorf("%w: key: %v", ErrMalformedHash, err)
	}
	d.params.SaltLength = uint32(len(d.salt))
	d.params.KeyLength = uint32(len(d.key))
	if err := d.params.Validate(); err != nil {
		return d, fmt.Errorf("%w: %v", ErrMalformedHash, err)
	}
	if encode(d.params, d.salt, d.key) != s {
		return d, fmt.Errorf("%w: not in canonical form", ErrMalformedHash)
	}
	return d, nil
}

// parseParams parses "m=<KiB>,t=<passes>,p=<lanes>" in that order.
func parseParams(s string) (Params, error) {
	var p Params
	fields := strings.Split(s, ",")
	if len(fields) != 3 {
		return p, fmt.Errorf("%w: want m, t and p, got %q", ErrMalformedHash, s)
	}
	var vals [3]uint64
	for i, name := range [3]string{"m", "t", "p"} {
		v, ok := strings.CutPrefix(fields[i], name+"=")
		if !ok {
			return p, fmt.Errorf("%w: want %s= in position %d", ErrMalformedHash, name, i+1)
		}
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return p, fmt.Errorf("%w: %s: %v", ErrMalformedHash, name, err)
		}
		vals[i] = n
	}
	if vals[2] > maxParallelism {
		return p, fmt.Errorf("%w: parallelism %d above %d", ErrMalformedHash, vals[2], maxParallelism)
	}
	p.Memory, p.Iterations, p.Parallelism = uint32(vals[0]), uint32(vals[1]), uint8(vals[2])
	return p, nil
}
