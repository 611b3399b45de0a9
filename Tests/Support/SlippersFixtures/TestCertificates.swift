/// Certificates for ``TLSFixtureServer``: a test CA and server certificates it signed.
///
/// Made for the tests and trusted by nothing else: the CA's key was not kept, and
/// the server key below protects nothing but a fixture on 127.0.0.1.
public enum TestCertificates {
    /// The test CA, `CN=Slippers Test CA`, valid until 2126: what `--cacert` is given to trust the fixture.
    public static let authority = """
        -----BEGIN CERTIFICATE-----
        MIIBnjCCAUOgAwIBAgIUP29iF9eu4h4yZ4VIHJ7yZYHzSaIwCgYIKoZIzj0EAwIw
        GzEZMBcGA1UEAwwQU2xpcHBlcnMgVGVzdCBDQTAgFw0yNjExMjQxMjM5MTFaGA8y
        MTI2MTAzMTEyMzkxMVowGzEZMBcGA1UEAwwQU2xpcHBlcnMgVGVzdCBDQTBZMBMG
        ByqGSM49AgEGCCqGSM49AwEHA0IABABl03DbAdiVkSxM/FYrxsKOTPhZ+AEnxu9e
        1TsEKKLO6pgIppE8Ay7Rx67SGCqQYqMrp2FKYFPZUjUXf563qDWjYzBhMB0GA1Ud
        DgQWBBQRtZYjpaEcBhKXTA1IumQ52CJ5zTAfBgNVHSMEGDAWgBQRtZYjpaEcBhKX
        TA1IumQ52CJ5zTAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAKBggq
        hkjOPQQDAgNJADBGAiEAshhg+9MjJUT/kiLBtVV2OhrG9uPzJ3vt6+5EevaCqmAC
        IQCRoYrHLSthLNpbWqX7TFgjFFGrw6+4AjmCxrs0e7Sqhg==
        -----END CERTIFICATE-----
        """

    /// For `127.0.0.1` and `localhost`, signed by ``authority``, valid until 2126.
    static let server = """
        -----BEGIN CERTIFICATE-----
        MIIBsjCCAVegAwIBAgIURNxcrARY9z+kuuByl89uaE2fgGswCgYIKoZIzj0EAwIw
        GzEZMBcGA1UEAwwQU2xpcHBlcnMgVGVzdCBDQTAgFw0yNjExMjQxMjM5MTFaGA8y
        MTI2MTAzMTEyMzkxMVowFDESMBAGA1UEAwwJMTI3LjAuMC4xMFkwEwYHKoZIzj0C
        AQYIKoZIzj0DAQcDQgAEg/LRZM7pn7afGdwGvaBBtnbRwwejGYyTmHZK53zpxjxl
        hrMmmOcIPF49AcZkJHw4Xp3ws35EbNP+D9lBG+3UIqN+MHwwGgYDVR0RBBMwEYcE
        fwAAAYIJbG9jYWxob3N0MAkGA1UdEwQCMAAwEwYDVR0lBAwwCgYIKwYBBQUHAwEw
        HQYDVR0OBBYEFNJKkQV5RZwbWheR1Xxd8iqWHfR4MB8GA1UdIwQYMBaAFBG1liOl
        oRwGEpdMDUi6ZDnYInnNMAoGCCqGSM49BAMCA0kAMEYCIQD36K2OkEC8gQ3ejWfa
        ZcEYlj7B4o0sJ3DoRfp7bDBv5AIhAJQPTuBTNdJXOegIT+m6/pRwX9Pc72uf1mIB
        KoveNNxL
        -----END CERTIFICATE-----
        """

    /// For `example.test` only, signed by ``authority``: a name that does not match 127.0.0.1.
    static let otherName = """
        -----BEGIN CERTIFICATE-----
        MIIBrTCCAVSgAwIBAgIURNxcrARY9z+kuuByl89uaE2fgGwwCgYIKoZIzj0EAwIw
        GzEZMBcGA1UEAwwQU2xpcHBlcnMgVGVzdCBDQTAgFw0yNjExMjQxMjM5MTJaGA8y
        MTI2MTAzMTEyMzkxMlowFDESMBAGA1UEAwwJMTI3LjAuMC4xMFkwEwYHKoZIzj0C
        AQYIKoZIzj0DAQcDQgAEg/LRZM7pn7afGdwGvaBBtnbRwwejGYyTmHZK53zpxjxl
        hrMmmOcIPF49AcZkJHw4Xp3ws35EbNP+D9lBG+3UIqN7MHkwFwYDVR0RBBAwDoIM
        ZXhhbXBsZS50ZXN0MAkGA1UdEwQCMAAwEwYDVR0lBAwwCgYIKwYBBQUHAwEwHQYD
        VR0OBBYEFNJKkQV5RZwbWheR1Xxd8iqWHfR4MB8GA1UdIwQYMBaAFBG1liOloRwG
        EpdMDUi6ZDnYInnNMAoGCCqGSM49BAMCA0cAMEQCID4k6OXmViUVavGIDNcW3uWS
        GGA/uGAo+UPRow4qMfkOAiBj2XZybrCRROPlPgp2r/oBkXUqgqIzrlv7z5p6CQ0N
        JQ==
        -----END CERTIFICATE-----
        """

    /// For `127.0.0.1`, signed by ``authority``, valid only through 2020.
    static let expired = """
        -----BEGIN CERTIFICATE-----
        MIIBnTCCAUOgAwIBAgICEAAwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQU2xpcHBl
        cnMgVGVzdCBDQTAeFw0yMDAxMDEwMDAwMDBaFw0yMTAxMDEwMDAwMDBaMBQxEjAQ
        BgNVBAMMCTEyNy4wLjAuMTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABIPy0WTO
        6Z+2nxncBr2gQbZ20cMHoxmMk5h2Sud86cY8ZYazJpjnCDxePQHGZCR8OF6d8LN+
        RGzT/g/ZQRvt1CKjfjB8MBoGA1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAJBgNV
        HRMEAjAAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMB0GA1UdDgQWBBTSSpEFeUWcG1oX
        kdV8XfIqlh30eDAfBgNVHSMEGDAWgBQRtZYjpaEcBhKXTA1IumQ52CJ5zTAKBggq
        hkjOPQQDAgNIADBFAiEA6/BgjDFq1fpAr4/CQJErDK+VF7MZwf76ALjc6HdK6U4C
        ICpl+lgwqt2F5/UwHKXakzmkhPaiQPMjXBmc47fPA7EK
        -----END CERTIFICATE-----
        """

    /// The key of the three server certificates (P-256).
    static let serverKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSr/8nbo+VpuiN4aA
        XxQrZBmB8U5uRVDXSOXC4gTXtUKhRANCAASD8tFkzumftp8Z3Aa9oEG2dtHDB6MZ
        jJOYdkrnfOnGPGWGsyaY5wg8Xj0BxmQkfDhenfCzfkRs0/4P2UEb7dQi
        -----END PRIVATE KEY-----
        """
}
