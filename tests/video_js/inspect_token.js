// Parses and verifies an AccessToken2 ("007") token with the provider's own library.
// Usage: node inspect_token.js '{"token", "app_certificate"}'
// Prints JSON: {parsed, verified, app_id, issue_ts, expire, salt, services: [{type, privileges, channel, uid}]}.
'use strict'

const { AccessToken2 } = require('agora-token/src/AccessToken2')

const spec = JSON.parse(process.argv[2])
const token = new AccessToken2()
const parsed = token.from_string(spec.token)
const verified = parsed && token.verifySignature(spec.app_certificate)
const services = token.services.map(service => ({
    type: service.service_type(),
    privileges: service.__privileges,
    channel: service.__channel_name === undefined ? null : service.__channel_name.toString(),
    uid: service.__uid === undefined ? null : service.__uid.toString()
}))
process.stdout.write(JSON.stringify({
    parsed,
    verified,
    app_id: token.appId.toString(),
    issue_ts: token.issueTs,
    expire: token.expire,
    salt: token.salt,
    services
}))
