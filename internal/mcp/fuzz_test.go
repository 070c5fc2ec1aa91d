package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// stubHandle answers like the endpoint without a database: ping succeeds,
// initialize is refused in a batch, everything else is an unknown method.
func stubHandle(_ context.Context, req *request, batch bool) *response {
	switch {
	case req.notification():
		return nil
	case req.Method == "ping":
		return resultResponse(req.ID, struct{}{})
	case req.Method == "initialize" && batch:
		return errorResponse(req.ID, &rpcError{Code: CodeInvalidRequest, Message: "Invalid Request"})
	default:
		return errorResponse(req.ID, errMethodNotFound(req.Method))
	}
}

// FuzzProcess feeds arbitrary bodies to the decoder and transport: never a
// panic, and always a valid JSON-RPC answer (or 202 with no body). The seed
// corpus (the golden transcripts' requests and the cases below) runs in
// every plain go test.
func FuzzProcess(f *testing.F) {
	for _, s := range []string{
		``, `null`, `{}`, `[]`, `[[]]`, `[1,2,3]`, `"x"`, `{"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5e3,"method":"ping","params":7}`,
		`{"jsonrpc":"2.0","ID":1,"Method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"x","method":"initialize"}]`,
		"\xff\xfe", `{"jsonrpc":"2.0","id":"\u0000","method":"\ud800"}`,
		`  [ {"jsonrpc":"2.0","id":-1,"method":"ping","params":[]} ]  `,
	} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			continue
		}
		for _, fl := range ar.Files {
			if fl.Name == "request" {
				f.Add(bytes.TrimSpace(fl.Data))
			}
		}
	}
	if _, err := os.Stat("testdata"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		status, out, release := process(context.Background(), body, stubHandle)
		defer release()
		switch status {
		case http.StatusAccepted:
			if len(out) != 0 {
				t.Fatalf("202 with a body: %s", out)
			}
			return
		case http.StatusOK:
		default:
			t.Fatalf("status %d", status)
		}
		if !json.Valid(out) {
			t.Fatalf("answer is not JSON: %q", out)
		}
		var many []json.RawMessage
		if out[0] == '[' {
			if err := json.Unmarshal(out, &many); err != nil || len(many) == 0 {
				t.Fatalf("bad batch answer: %s", out)
			}
		} else {
			many = []json.RawMessage{out}
		}
		for _, r := range many {
			checkResponse(t, r)
		}
	})
}

func checkResponse(t *testing.T, raw json.RawMessage) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("response is not an object: %s", raw)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("jsonrpc: %s", raw)
	}
	id, ok := m["id"]
	if !ok {
		t.Fatalf("no id: %s", raw)
	}
	_, hasResult := m["result"]
	e, hasError := m["error"]
	if hasResult == hasError {
		t.Fatalf("want exactly one of result and error: %s", raw)
	}
	if !hasError {
		return
	}
	var re struct {
		Code    *int            `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(e, &re); err != nil || re.Code == nil || re.Message == nil {
		t.Fatalf("malformed error: %s", raw)
	}
	if len(re.Data) > 0 && re.Data[0] != '{' {
		t.Fatalf("error data is not an object: %s", raw)
	}
	if string(id) == "null" && *re.Code != CodeParseError && *re.Code != CodeInvalidRequest {
		t.Fatalf("id null on a request whose id could be read: %s", raw)
	}
}
