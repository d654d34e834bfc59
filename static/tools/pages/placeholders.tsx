import { boot } from '../boot.tsx'
import { PlaceholdersTool } from '../generate/placeholders.tsx'

boot(() => <PlaceholdersTool />)
