import MusterAppTesting
import MusterOPL
import MusterPlatform
import MusterRuntime

/// What these tests compose: OPL on the platform it stands on, beside an OFFLEASH (whose people are not moderators).
let apps = MusterApps([PlatformApp(), OPLApp(), ClientApp(name: "offleash", roles: ["customer"])])
