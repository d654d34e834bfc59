import { boot } from '../boot.tsx'
import { ResponsiveTool } from '../generate/responsive.tsx'

boot(() => <ResponsiveTool />)
