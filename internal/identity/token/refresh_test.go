package token_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/token"
)

var refreshShape = regexp.MustCompile(`^rt_[a-z2-7]{16}_[a-z2-7]{52}$`)

func TestRefreshToken(t *testing.T) {
	rt := token.NewRefreshToken()
	require.Regexp(t, refreshShape, rt.Token)
	require.Len(t, rt.Token, token.RefreshTokenLen)
	require.Len(t, rt.Hash, 32)
	require.True(t, strings.HasPrefix(rt.Token, "rt_"+rt.Lookup+"_"))

	lookup, hash, err := token.ParseRefreshToken(rt.Token)
	require.NoError(t, err)
	require.Equal(t, rt.Lookup, lookup)
	require.True(t, token.RefreshHashEqual(hash, rt.Hash))

	other := token.NewRefreshToken()
	require.NotEqual(t, rt.Token, other.Token)
	require.NotEqual(t, rt.Lookup, other.Lookup)
	require.False(t, token.RefreshHashEqual(hash, other.Hash))
	require.False(t, token.RefreshHashEqual(hash, nil), "a missing stored hash never matches")
	require.False(t, token.RefreshHashEqual(nil, nil))

	// A token with the same lookup and another secret has another hash.
	last := "a"
	if strings.HasSuffix(rt.Token, "a") {
		last = "b"
	}
	forged := rt.Token[:len(rt.Token)-1] + last
	_, fh, err := token.ParseRefreshToken(forged)
	require.NoError(t, err)
	require.False(t, token.RefreshHashEqual(fh, rt.Hash))
}

func TestRefreshTokenDoesNotPrintSecret(t *testing.T) {
	rt := token.NewRefreshToken()
	secret := rt.Token[len("rt_")+16+1:]
	for _, format := range []string{"%v", "%+v", "%s", "%#v"} {
		out := fmt.Sprintf(format, rt)
		require.Contains(t, out, rt.Lookup, format)
		require.NotContains(t, out, secret, format)
	}
}

func TestParseRefreshTokenRejects(t *testing.T) {
	rt := token.NewRefreshToken()
	for name, s := range map[string]string{
		"empty":          "",
		"prefix only":    "rt_",
		"upper case":     strings.ToUpper(rt.Token),
		"other prefix":   "xx" + rt.Token[2:],
		"no separator":   strings.Replace(rt.Token[3:], "_", "x", 1),
		"short":          rt.Token[:len(rt.Token)-1],
		"long":           rt.Token + "a",
		"trailing space": rt.Token[:len(rt.Token)-1] + " ",
		"digit 1":        rt.Token[:10] + "1" + rt.Token[11:],
		"jwt":            "eyJhbGciOiJFZERTQSJ9.e30.AAAA",
		"api key shape":  "vk_abcdefghij_" + strings.Repeat("a", 40),
	} {
		_, _, err := token.ParseRefreshToken(s)
		require.ErrorIs(t, err, token.ErrInvalidRefreshToken, name)
	}
}
