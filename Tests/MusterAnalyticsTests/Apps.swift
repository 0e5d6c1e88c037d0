import MusterAnalytics
import MusterPlatform
import MusterRuntime

/// What these tests compose: analytics on the platform it stands on.
let apps = MusterApps([PlatformApp(), AnalyticsApp()])
