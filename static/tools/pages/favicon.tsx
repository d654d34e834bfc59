import { boot } from '../boot.tsx'
import { FaviconTool } from '../generate/favicon.tsx'

boot(() => <FaviconTool />)
