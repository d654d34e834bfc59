// Compresses an image to WebP with Go's standard library and writes <name>.webp next to it.
// Usage: IMGAPI_URL=http://localhost:3000 go run compress.go photo.jpg
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// attempts is how many times a request is sent while imgapi answers that it is busy.
const attempts = 4

// problem is the application/problem+json body of every imgapi error.
type problem struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run compress.go <image>")
		os.Exit(2)
	}
	if err := compress(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// formBody builds the multipart body: the image in field "file", options as plain fields.
func formBody(input string, options map[string]string) (*bytes.Buffer, string, error) {
	file, err := os.Open(input)
	if err != nil {
		return nil, "", err
	}
	defer file.Close()

	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	part, err := form.CreateFormFile("file", filepath.Base(input))
	if err != nil {
		return nil, "", err
	}
	if _, err := io.Copy(part, file); err != nil {
		return nil, "", err
	}
	for name, value := range options {
		if err := form.WriteField(name, value); err != nil {
			return nil, "", err
		}
	}
	if err := form.Close(); err != nil {
		return nil, "", err
	}
	return &body, form.FormDataContentType(), nil
}

// retryable says whether the same request may succeed later: 429 (rate limited) and 503 (busy).
// Any other error, 4xx or 5xx, will not change by asking again.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// retryDelay is the wait Retry-After asks for (in seconds); without one, a random wait up to
// 0.5 s * 2^attempt, so that clients spread out.
func retryDelay(retryAfter string, attempt int) time.Duration {
	if seconds, err := strconv.Atoi(retryAfter); err == nil && seconds > 0 {
		return time.Duration(seconds) * time.Second
	}
	return time.Duration(jitter.Int63n(int64(500*time.Millisecond) << attempt))
}

var jitter = rand.New(rand.NewSource(time.Now().UnixNano()))

func compress(input string) error {
	baseURL := os.Getenv("IMGAPI_URL")
	if baseURL == "" {
		baseURL = "http://localhost:3000"
	}
	body, contentType, err := formBody(input, map[string]string{"format": "webp", "quality": "75"})
	if err != nil {
		return err
	}

	client := &http.Client{Timeout: 60 * time.Second}
	var resp *http.Response
	for attempt := 1; ; attempt++ {
		resp, err = client.Post(baseURL+"/api/compress", contentType, bytes.NewReader(body.Bytes()))
		if err != nil {
			return err
		}
		if !retryable(resp.StatusCode) || attempt == attempts {
			break
		}
		resp.Body.Close()
		time.Sleep(retryDelay(resp.Header.Get("Retry-After"), attempt))
	}
	defer resp.Body.Close()

	if resp.StatusCode >= 400 {
		var p problem
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil || p.Code == "" {
			return fmt.Errorf("HTTP %s", resp.Status)
		}
		return fmt.Errorf("%s: %s", p.Code, p.Detail)
	}

	// photo.jpg -> photo.webp; a WebP input gets photo.min.webp rather than being overwritten.
	output := strings.TrimSuffix(input, filepath.Ext(input)) + ".webp"
	if output == input {
		output = strings.TrimSuffix(input, ".webp") + ".min.webp"
	}
	out, err := os.Create(output)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, resp.Body); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	fmt.Printf("%s -> %s: %s -> %s bytes (ratio %s, %sx%s)\n", input, output,
		resp.Header.Get("X-Original-Size"), resp.Header.Get("X-Compressed-Size"),
		resp.Header.Get("X-Compression-Ratio"), resp.Header.Get("X-Image-Width"),
		resp.Header.Get("X-Image-Height"))
	return nil
}
