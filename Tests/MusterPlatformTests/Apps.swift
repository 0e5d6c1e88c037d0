import MusterAppTesting
import MusterPlatform
import MusterRuntime

/// What these tests compose: the platform, and two apps it has never heard of by name.
let apps = MusterApps([PlatformApp(), ClientApp(name: "shieldai", roles: ["customer"]), ClientApp(name: "opl", roles: ["moderator"])])
