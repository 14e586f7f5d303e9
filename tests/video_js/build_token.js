// Builds an AccessToken2 ("007") RTC token with the provider's own library (npm agora-token).
// Usage: node build_token.js '{"app_id", "app_certificate", "issue_ts", "expire", "salt",
//                              "channel", "uid", "privileges": {"1": 3600, ...}}'
// Prints the token on stdout.
'use strict'

const { AccessToken2, ServiceRtc } = require('agora-token/src/AccessToken2')

const spec = JSON.parse(process.argv[2])
const token = new AccessToken2(spec.app_id, spec.app_certificate, spec.issue_ts, spec.expire)
token.salt = spec.salt
const rtc = new ServiceRtc(spec.channel, spec.uid)
for (const [privilege, expire] of Object.entries(spec.privileges)) {
    rtc.add_privilege(Number(privilege), expire)
}
token.add_service(rtc)
const built = token.build()
if (!built) {
    console.error('agora-token refused to build the token')
    process.exit(1)
}
process.stdout.write(built)
