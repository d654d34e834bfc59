<?php
// Compresses an image to WebP with PHP's curl extension and writes it next to the input.
// Usage: IMGAPI_URL=http://localhost:3000 php compress.php photo.jpg

$baseUrl = getenv('IMGAPI_URL') ?: 'http://localhost:3000';
// 429 (rate limited) and 503 (busy) may succeed later; any other error will not change by asking again.
const RETRYABLE = [429, 503];
const ATTEMPTS = 4;
$input = $argv[1] ?? '';
if (!is_file($input)) {
    fwrite(STDERR, "usage: php compress.php <image>\n");
    exit(2);
}

$curl = curl_init("$baseUrl/api/compress");
curl_setopt_array($curl, [
    CURLOPT_POST => true,
    // A CURLFile makes the body multipart/form-data; the other fields are options.
    CURLOPT_POSTFIELDS => ['file' => new CURLFile($input), 'format' => 'webp', 'quality' => '75'],
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_TIMEOUT => 60,
    // Collects the response headers, lower-cased, for the summary below.
    CURLOPT_HEADERFUNCTION => function ($curl, $line) use (&$headers) {
        $parts = explode(':', $line, 2);
        if (count($parts) === 2) {
            $headers[strtolower(trim($parts[0]))] = trim($parts[1]);
        }
        return strlen($line);
    },
]);
for ($attempt = 1; ; $attempt++) {
    $headers = [];
    $body = curl_exec($curl);
    $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
    if ($body === false) {
        fwrite(STDERR, 'request failed: ' . curl_error($curl) . "\n");
        exit(1);
    }
    if (!in_array($status, RETRYABLE, true) || $attempt === ATTEMPTS) {
        break;
    }
    // Retry-After says how many seconds to wait; without it, a random wait up to 0.5 s * 2^attempt.
    $retryAfter = $headers['retry-after'] ?? '';
    $waitMs = ctype_digit($retryAfter) && $retryAfter > 0
        ? 1000 * (int) $retryAfter
        : random_int(0, 500 * 2 ** $attempt);
    usleep($waitMs * 1000);
}

if ($status >= 400) {
    // Every error is application/problem+json: a stable code and a detail saying what went wrong.
    $problem = json_decode($body, true) ?? [];
    fwrite(STDERR, ($problem['code'] ?? $status) . ': ' . ($problem['detail'] ?? $body) . "\n");
    exit(1);
}

// photo.jpg -> photo.webp; a WebP input gets photo.min.webp rather than being overwritten.
$stem = preg_replace('/\.[^.\/]*$/', '', $input);
$output = "$stem.webp" === $input ? "$stem.min.webp" : "$stem.webp";
file_put_contents($output, $body);
printf(
    "%s -> %s: %s -> %s bytes (ratio %s, %sx%s)\n",
    $input,
    $output,
    $headers['x-original-size'],
    $headers['x-compressed-size'],
    $headers['x-compression-ratio'],
    $headers['x-image-width'],
    $headers['x-image-height']
);
