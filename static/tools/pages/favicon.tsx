import { boot } from '../../kit/boot.tsx'
import { FaviconTool } from '../generate/favicon.tsx'

boot(() => <FaviconTool />)
