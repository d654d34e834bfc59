// Compresses an image to WebP with Go's standard library and writes <name>.webp next to it.
// Usage: IMGAPI_URL=http://localhost:3000 go run compress.go photo.jpg
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

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
	resp, err := client.Post(baseURL+"/api/compress", contentType, body)
	if err != nil {
		return err
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
