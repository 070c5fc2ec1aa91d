package codes_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/codes"
)

func newHasher(t *testing.T) *codes.Hasher {
	t.Helper()
	h, err := codes.NewHasher(bytes.Repeat([]byte{7}, codes.MinPepperSize))
	require.NoError(t, err)
	return h
}

func TestHasher(t *testing.T) {
	_, err := codes.NewHasher(make([]byte, codes.MinPepperSize-1))
	require.ErrorIs(t, err, codes.ErrWeakPepper)

	h := newHasher(t)
	base := h.Sum(codes.PurposePasswordReset, "user-1", "123456")
	require.Len(t, base, 32)
	require.Equal(t, base, h.Sum(codes.PurposePasswordReset, "user-1", "123456"), "deterministic")
	for name, other := range map[string][]byte{
		"purpose":  h.Sum(codes.PurposeEmailOTP, "user-1", "123456"),
		"subject":  h.Sum(codes.PurposePasswordReset, "user-2", "123456"),
		"code":     h.Sum(codes.PurposePasswordReset, "user-1", "123457"),
		"boundary": h.Sum(codes.PurposePasswordReset, "user-11", "23456"),
	} {
		require.False(t, codes.Equal(base, other), name)
	}
	h2, err := codes.NewHasher(bytes.Repeat([]byte{8}, codes.MinPepperSize))
	require.NoError(t, err)
	require.False(t, codes.Equal(base, h2.Sum(codes.PurposePasswordReset, "user-1", "123456")), "pepper")
	require.False(t, codes.Equal(nil, nil), "empty hashes never match")
}

var backupShape = regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$`)

func TestBackupCodes(t *testing.T) {
	h := newHasher(t)
	set := codes.NewBackupCodes()
	require.Len(t, set, codes.BackupCodeCount)
	seen := map[string]bool{}
	stored := make([][]byte, 0, len(set))
	for _, c := range set {
		require.Regexp(t, backupShape, c)
		require.False(t, seen[c], "codes of a set are distinct")
		seen[c] = true
		sum, err := h.BackupCodeHash("user-1", c)
		require.NoError(t, err)
		stored = append(stored, sum)
	}

	// The user types the seventh code in capitals without the dash.
	i, err := h.MatchBackupCode("user-1", strings.ToUpper(strings.ReplaceAll(set[6], "-", "")), stored)
	require.NoError(t, err)
	require.Equal(t, 6, i)

	// Another user's codes do not match, nor does a new set.
	_, err = h.MatchBackupCode("user-2", set[6], stored)
	require.ErrorIs(t, err, codes.ErrInvalidCode)
	_, err = h.MatchBackupCode("user-1", codes.NewBackupCodes()[0], stored)
	require.ErrorIs(t, err, codes.ErrInvalidCode)
	_, err = h.MatchBackupCode("user-1", "not a code", stored)
	require.ErrorIs(t, err, codes.ErrInvalidCode)
}

func TestNormalizeBackupCode(t *testing.T) {
	for in, want := range map[string]string{
		"ab12-cd34":      "ab12cd34",
		"AB12-CD34":      "ab12cd34",
		"ab12cd34":       "ab12cd34",
		" ab12 cd34 ":    "ab12cd34",
		"ab-12-cd-34":    "ab12cd34",
		"ab12\u2013cd34": "ab12cd34", // en dash
		"ab12\tcd34\n":   "ab12cd34",
		"oO0I-iL1l":      "00011111",
	} {
		got, err := codes.NormalizeBackupCode(in)
		require.NoError(t, err, "%q", in)
		require.Equal(t, want, got, "%q", in)
	}
	for _, in := range []string{"", "ab12-cd3", "ab12-cd345", "ab12-cd3u", "ab12_cd34", "ab12-cd3!", "ab12-cd3\u00e9", "ab12-cd3\u212a"} {
		_, err := codes.NormalizeBackupCode(in)
		require.ErrorIs(t, err, codes.ErrInvalidCode, "%q", in)
	}
}

func TestNumericCodes(t *testing.T) {
	for range 1000 {
		c := codes.NewNumericCode()
		require.Regexp(t, `^[0-9]{6}$`, c)
	}
	for in, want := range map[string]string{
		"012345":   "012345",
		"012 345":  "012345",
		"012-345":  "012345",
		" 012345 ": "012345",
	} {
		got, err := codes.NormalizeNumericCode(in)
		require.NoError(t, err, "%q", in)
		require.Equal(t, want, got)
	}
	for _, in := range []string{"", "12345", "1234567", "12345a", "１２３４５６", "١٢٣٤٥٦", "+12345", "12345.0"} {
		_, err := codes.NormalizeNumericCode(in)
		require.ErrorIs(t, err, codes.ErrInvalidCode, "%q", in)
	}
}

// Each position of a numeric code is uniform over the ten digits. Critical
// value of chi-square with 9 degrees of freedom at p = 1e-6: 46.
func TestNumericCodeDigitsUniform(t *testing.T) {
	const samples = 20_000
	var counts [codes.NumericCodeDigits][10]int
	for range samples {
		for i, c := range codes.NewNumericCode() {
			counts[i][c-'0']++
		}
	}
	for pos, cs := range counts {
		var x2 float64
		for _, c := range cs {
			d := float64(c) - samples/10.0
			x2 += d * d / (samples / 10.0)
		}
		require.Less(t, x2, 46.0, "position %d: %v", pos, cs)
	}
}

func TestUserCodes(t *testing.T) {
	shape := regexp.MustCompile(`^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$`)
	for range 1000 {
		c := codes.NewUserCode()
		require.Regexp(t, shape, c)
		n, err := codes.NormalizeUserCode(c)
		require.NoError(t, err)
		require.Equal(t, c, codes.FormatUserCode(n))
	}
	for in, want := range map[string]string{
		"BCDF-GHJK":        "BCDFGHJK",
		"bcdf-ghjk":        "BCDFGHJK",
		"bcdfghjk":         "BCDFGHJK",
		" BcDf GhJk ":      "BCDFGHJK",
		"BCDF\u2010GHJK":   "BCDFGHJK", // Unicode hyphen
		"B-C-D-F-G-H-J-K":  "BCDFGHJK",
		"\u00a0BCDFGHJK\t": "BCDFGHJK",
	} {
		got, err := codes.NormalizeUserCode(in)
		require.NoError(t, err, "%q", in)
		require.Equal(t, want, got, "%q", in)
	}
	for _, in := range []string{
		"", "BCDF-GHJ", "BCDF-GHJKL", "ABCD-FGHJ", "BCDF-GHJ0", "BCDF-GHJO", "BCDF-GHJ1", "BCDF-GHJI",
		"BCDF_GHJK", "BCDF.GHJK", "BCDF-GHJ\u212a", "ＢCDF-GHJK", "BCDF-GHJK\x00",
	} {
		_, err := codes.NormalizeUserCode(in)
		require.ErrorIs(t, err, codes.ErrInvalidCode, "%q", in)
	}
	require.Equal(t, "short", codes.FormatUserCode("short"))
}

func TestOpaqueCodes(t *testing.T) {
	for _, c := range []string{codes.NewDeviceCode(), codes.NewHandoffCode()} {
		require.Regexp(t, `^[A-Za-z0-9_-]{43}$`, c)
		h, err := codes.HashOpaque(c)
		require.NoError(t, err)
		require.Len(t, h, 32)
		again, err := codes.HashOpaque(c)
		require.NoError(t, err)
		require.Equal(t, h, again)
	}
	require.NotEqual(t, codes.NewDeviceCode(), codes.NewDeviceCode())

	good := codes.NewDeviceCode()
	last := good[len(good)-1]
	// The last character carries 4 bits and 2 padding bits; flip a padding bit.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	stray := good[:42] + string(alphabet[strings.IndexByte(alphabet, last)^1])
	for name, in := range map[string]string{
		"empty":      "",
		"short":      good[:42],
		"long":       good + "A",
		"padded":     good + "=",
		"std base64": "+" + good[1:],
		"space":      " " + good[1:],
		"stray bits": stray,
		"user code":  "BCDF-GHJK",
	} {
		_, err := codes.HashOpaque(in)
		require.ErrorIs(t, err, codes.ErrInvalidCode, name)
	}
}
