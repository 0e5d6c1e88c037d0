import MusterAppTesting
import MusterPlatform
import MusterPush
import MusterRuntime
import MusterShieldAI

/// What these tests compose: ShieldAI on the platform, with pushes.
let apps = MusterApps([PlatformApp(), PushApp(), ShieldAIApp(), ClientApp(name: "opl", roles: ["moderator"])])
